/** Module manifest: site import: import (idempotency keys), preview, records, retry, delete, live status (schema/imports.graphql, `/api/site-import*`). */

import { liveRelay } from "../events.ts";
import { defineModule } from "../module.ts";
import { expireInterruptedImportsJob, pruneIdempotencyKeysJob, runSiteImportJob } from "./site-import.jobs.ts";
import { createSiteImportLoaders } from "./site-import.loaders.ts";
import { siteImportResolvers } from "./site-import.resolvers.ts";
import { siteImportRoutes } from "./site-import.rest.ts";
import { siteImportComputedColumns, siteImportSqlReads, siteImportSqlRows } from "./site-import.sql-reads.ts";

declare module "../module.ts" {
  interface ModuleLoaders {
    siteImports: ReturnType<typeof createSiteImportLoaders>;
  }
}

/** The siteImports module. */
export const siteImportsModule = defineModule({
  name: "siteImports",
  tables: ["site_imports", "site_import_idempotency_keys"],
  sqlReads: siteImportSqlReads,
  sqlRows: siteImportSqlRows,
  computedColumns: siteImportComputedColumns,
  resolvers: siteImportResolvers,
  createLoaders: ({ knex, scope }) => createSiteImportLoaders(knex, scope),
  restRoutes: siteImportRoutes,
  jobs: [runSiteImportJob, expireInterruptedImportsJob, pruneIdempotencyKeysJob],
  // The live subscription's events reach every instance's subscribers (`site_import.updated`, relayed to pub/sub).
  onEvent: liveRelay("site_import.updated"),
});
