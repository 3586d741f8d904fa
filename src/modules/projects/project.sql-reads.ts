/**
 * Compiled-read SQL of schema/projects.graphql (src/reads/compiler.ts), the only implementation of these reads:
 * projects visible to the caller (grants included), their environments, an organization's projects as a
 * connection, and where a project or environment is found by id. An environment's applications and databases are
 * declared by the modules owning those tables.
 */

import { visibleProjectSql } from "../../auth/access/policy.ts";
import {
  belongsTo,
  column,
  connectionSql,
  hasMany,
  type JsonSql,
  pageSizeArg,
  rootById,
  type SqlReadCompiler,
  type SqlReadField,
  type SqlReadRows,
  type SqlReadTypes,
  timestamp,
} from "../../reads/index.ts";
import { decodeCursor } from "../../shared/pagination.ts";

/** The condition "project row `alias` is visible to the caller" (SQL). */
export function visibleProjectRow(compiler: SqlReadCompiler, alias: string): string {
  return compiler.condition(visibleProjectSql(compiler.caller.orgs, `${alias}.organization_id`, `${alias}.id`));
}

/** Where projects and environments are found by id, with the caller's visibility. */
export const projectSqlRows: SqlReadRows = {
  Project: { table: "projects", visible: visibleProjectRow },
  Environment: {
    table: "environments",
    visible: (compiler, alias) => {
      const p = compiler.alias();
      return `exists (select 1 from projects ${p} where ${p}.id = ${alias}.project_id and ${visibleProjectRow(compiler, p)})`;
    },
  },
};

/**
 * The projects of organization `organizationSql` (SQL, null: none) visible to the caller, as a `ProjectConnection`
 * page (`first` 1..100, default 20; `after` a cursor). @throws BAD_USER_INPUT for a bad page size or cursor.
 */
function projectConnection(field: SqlReadField, organizationSql: string | null): JsonSql | null {
  const { compiler } = field;
  const first = pageSizeArg(field, "first", 100, 20);
  const afterId = typeof field.args.after === "string" ? decodeCursor(field.args.after) : null;
  const where = organizationSql
    ? `p.organization_id = ${organizationSql} and ${visibleProjectRow(compiler, "p")}`
    : "false";
  return connectionSql(field, { table: "projects", where, first, afterId, nodeType: "Project" });
}

/**
 * Query.project(s), Organization.projects, Project, Environment, and the project and environment of others' rows
 * (applications, databases, grants, payment gateway services).
 */
export const projectSqlReads: SqlReadTypes = {
  Query: {
    projects: (field) => {
      const id = field.compiler.caller.organizationId;
      return projectConnection(field, id ? field.compiler.param(id) : null);
    },
    project: rootById("Project", projectSqlRows.Project!),
  },
  Organization: {
    projects: (field) => projectConnection(field, `${field.alias}.id`),
  },
  // Counts against the plan (the object's row is the organization's; src/modules/organizations/quota.ts).
  PlanUsage: {
    projects: ({ alias }) => `(select count(*)::int from projects q where q.organization_id = ${alias}.id)`,
  },
  Project: {
    id: column("id"),
    name: column("name"),
    description: column("description"),
    createdAt: timestamp("created_at"),
    environments: hasMany("Environment", "environments", "project_id"),
  },
  Environment: {
    id: column("id"),
    name: column("name"),
    createdAt: timestamp("created_at"),
    project: belongsTo("Project", "projects", "project_id"),
  },
  // Where an application or database lives (their types are the applications and databases modules').
  Application: {
    project: belongsTo("Project", "projects", "project_id"),
    environment: belongsTo("Environment", "environments", "environment_id"),
  },
  Database: {
    environment: belongsTo("Environment", "environments", "environment_id"),
  },
  SiteImport: {
    project: belongsTo("Project", "projects", "project_id", projectSqlRows.Project),
  },
  // A grant's project: null for an application grant, or when the caller cannot see the project.
  MemberGrant: {
    project: belongsTo("Project", "projects", "project_id", projectSqlRows.Project),
  },
  // The project of a payment gateway service (visible with it).
  PaymentGatewayService: {
    project: belongsTo("Project", "projects", "project_id"),
  },
};
