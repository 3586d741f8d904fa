/** Module manifest: database services of environments (created by site imports; read by compiled SQL). */
import { defineModule } from "../module.ts";
import { databaseSqlReads, databaseSqlRows } from "./database.sql-reads.ts";

/** The databases module. */
export const databasesModule = defineModule({
  name: "databases",
  tables: ["databases"],
  sqlReads: databaseSqlReads,
  sqlRows: databaseSqlRows,
});

export type { DatabaseType } from "./database.model.ts";
// The public surface: what other modules may import (they import nothing else of this folder).
export { databasesTable } from "./database.queries.ts";
export { createDatabase, databaseEnvVars, databaseServiceHost } from "./database.service.ts";
