/**
 * Compiled-read SQL of schema/projects.graphql (src/reads/compiler.ts), the only implementation of these reads:
 * projects visible to the caller (grants included; projectTable in project.tables.ts), their environments, an
 * organization's projects as a connection. An environment's applications and databases are declared by the modules
 * owning those tables.
 */

import {
  belongsTo,
  connectionSql,
  hasMany,
  type JsonSql,
  pageSizeArg,
  type ReadField,
  type ReadTypes,
  rootById,
} from "../../reads/index.ts";
import { decodeCursor } from "../../shared/pagination.ts";
import { environmentTable, projectTable, visibleProjectRow } from "./project.tables.ts";

/**
 * The projects of organization `organizationSql` (SQL, null: none) visible to the caller, as a `ProjectConnection`
 * page (`first` 1..100, default 20; `after` a cursor). @throws BAD_USER_INPUT for a bad page size or cursor.
 */
function projectConnection(field: ReadField, organizationSql: string | null): JsonSql | null {
  const { compiler } = field;
  const first = pageSizeArg(field, "first");
  const afterId = typeof field.args.after === "string" ? decodeCursor(field.args.after, "project") : null;
  const where = organizationSql
    ? `p.organization_id = ${organizationSql} and ${visibleProjectRow(compiler, "p")}`
    : "false";
  return connectionSql(field, { table: projectTable.table, where, first, afterId, nodeType: "Project" });
}

/**
 * Query.project(s), Organization.projects, Project, Environment, and the project and environment of others' rows
 * (applications, databases, grants, payment gateway services).
 */
export const projectReads: ReadTypes = {
  Query: {
    projects: (field) => {
      const id = field.compiler.caller.organizationId;
      return projectConnection(field, id ? field.compiler.param(id) : null);
    },
    project: rootById(projectTable),
  },
  Organization: {
    projects: (field) => projectConnection(field, `${field.alias}.id`),
  },
  // Counts against the plan (the object's row is the organization's; src/modules/organizations/quota.ts).
  PlanUsage: {
    projects: ({ alias }) => `(select count(*)::int from projects q where q.organization_id = ${alias}.id)`,
  },
  Project: {
    environments: hasMany(environmentTable, "project_id"),
  },
  Environment: {
    project: belongsTo(projectTable, "project_id"),
  },
  // Where an application or database lives (their types are the applications and databases modules').
  Application: {
    project: belongsTo(projectTable, "project_id"),
    environment: belongsTo(environmentTable, "environment_id"),
  },
  Database: {
    environment: belongsTo(environmentTable, "environment_id"),
  },
  SiteImport: {
    project: belongsTo(projectTable, "project_id"),
  },
  // A grant's project: null for an application grant, or when the caller cannot see the project.
  MemberGrant: {
    project: belongsTo(projectTable, "project_id"),
  },
  // The project of a payment gateway service (visible with it).
  PaymentGatewayService: {
    project: belongsTo(projectTable, "project_id"),
  },
};
