/** Module manifest: database services of environments (created by site imports; read by compiled SQL). */
import type DataLoader from "dataloader";
import { defineModule } from "../module.ts";
import { Database } from "./database.model.ts";
import { databaseReads } from "./database.reads.ts";
import { databaseTable } from "./database.tables.ts";

declare module "../module.ts" {
  interface ModuleLoaders {
    databases: { byId: DataLoader<string, Database | null> };
  }
}

/** The databases module. */
export const databasesModule = defineModule({
  name: "databases",
  tables: ["databases"],
  reads: databaseReads,
  descriptors: [databaseTable],
  createLoaders: ({ byId }) => ({ byId: byId.loader(databaseTable, Database) }),
});

export { type ExportedDatabase, exportDatabases } from "./database.export.ts";
export { databasePasswordSchema, databaseSchema } from "./database.input.ts";
export type { Database, DatabaseType } from "./database.model.ts";
// The public surface: what other modules may import (they import nothing else of this folder).
export { databaseIdsOfOrganization, databasesOfProject, databasesToRender } from "./database.queries.ts";
export {
  createDatabase,
  type DatabaseSpec,
  databaseEnvVars,
  databaseServiceHost,
  databaseSpecOf,
  databasesInEnvironment,
  deleteDatabaseRow,
  generateDatabasePassword,
  lockDatabase,
  replaceDatabasePassword,
} from "./database.service.ts";
