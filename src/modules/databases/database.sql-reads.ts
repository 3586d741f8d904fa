/**
 * Compiled-read SQL of the Database type (src/reads/compiler.ts), the only implementation of these reads: an
 * environment's databases, their columns, and where a database is found by id (visible when its project is).
 */

import { visibleProjectSql } from "../../auth/access/policy.ts";
import {
  belongsTo,
  checkedEnum,
  column,
  hasMany,
  type SqlReadRows,
  type SqlReadTypes,
  timestamp,
} from "../../reads/index.ts";

/** Where databases are found by id, with the caller's visibility (their project's). */
export const databaseSqlRows: SqlReadRows = {
  Database: {
    table: "databases",
    visible: (compiler, alias) =>
      compiler.condition(visibleProjectSql(compiler.caller.orgs, `${alias}.organization_id`, `${alias}.project_id`)),
  },
};

/** Environment.databases and Database (its environment is declared by the projects module). */
export const databaseSqlReads: SqlReadTypes = {
  // Callers reach an environment's databases through visible environments only.
  Environment: {
    databases: hasMany("Database", "databases", "environment_id"),
  },
  SiteImport: {
    database: belongsTo("Database", "databases", "database_id", databaseSqlRows.Database),
  },
  // Counts against the plan (the object's row is the organization's; src/modules/organizations/quota.ts).
  PlanUsage: {
    databases: ({ alias }) => `(select count(*)::int from databases q where q.organization_id = ${alias}.id)`,
  },
  Database: {
    id: column("id"),
    type: checkedEnum("type"),
    name: column("name"),
    user: column("username"),
    serviceHost: column("service_host"),
    createdAt: timestamp("created_at"),
  },
};
