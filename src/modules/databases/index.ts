/** Module manifest: database services of environments (created by site imports; read through the applications loaders). */
import { defineModule } from "../module.ts";

/** The databases module. */
export const databasesModule = defineModule({
  name: "databases",
  tables: ["databases"],
});

export type { DatabaseType } from "./database.model.ts";
// The public surface: what other modules may import (issue 24; they import nothing else of this folder).
export { Database } from "./database.model.ts";
export { databasesTable } from "./database.queries.ts";
export { createDatabase, databaseEnvVars, databaseServiceHost } from "./database.service.ts";
