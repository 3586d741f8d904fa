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

export { type ExportedDatabase, exportDatabases } from "./database.export.ts";
export {
  databaseNameSchema,
  databasePasswordSchema,
  databaseSchema,
  databaseTypeSchema,
  databaseUserSchema,
} from "./database.input.ts";
export type { Database, DatabaseType } from "./database.model.ts";
// The public surface: what other modules may import (they import nothing else of this folder).
export { databaseIdsOfOrganization, databasesToRender } from "./database.queries.ts";
export {
  createDatabase,
  type DatabaseSpec,
  databaseById,
  databaseEnvVars,
  databaseServiceHost,
  databaseSpecOf,
  databasesInEnvironment,
  deleteDatabaseRow,
  generateDatabasePassword,
  lockDatabase,
  replaceDatabasePassword,
} from "./database.service.ts";
