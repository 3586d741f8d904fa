/**
 * Compiled-read SQL of the Database type (src/reads/compiler.ts), the only implementation of these reads: an
 * environment's databases and their columns.
 */

import { belongsTo, column, hasMany, type ReadTypes } from "../../reads/index.ts";
import { databaseTable } from "./database.tables.ts";

/** Environment.databases and Database (its environment is declared by the projects module). */
export const databaseReads: ReadTypes = {
  // Callers reach an environment's databases through visible environments only.
  Environment: {
    databases: hasMany(databaseTable, "environment_id"),
  },
  SiteImport: {
    database: belongsTo(databaseTable, "database_id"),
  },
  // Counts against the plan (the object's row is the organization's; src/modules/organizations/quota.ts).
  PlanUsage: {
    databases: ({ alias }) =>
      `(select count(*)::int from ${databaseTable.table} q where q.organization_id = ${alias}.id)`,
  },
  Database: {
    user: column("username"),
  },
};
