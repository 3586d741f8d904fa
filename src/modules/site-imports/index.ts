/** Module manifest: site import: import (idempotency keys), preview, records, retry, delete, live status (schema/site-imports.graphql, `/api/site-import*`). */

import type DataLoader from "dataloader";
import { liveRelay } from "../events.ts";
import { defineModule } from "../module.ts";
import { expireInterruptedImportsJob, pruneIdempotencyKeysJob, runSiteImportJob } from "./site-import.jobs.ts";
import { SiteImport } from "./site-import.model.ts";
import { siteImportComputedColumns, siteImportReads } from "./site-import.reads.ts";
import { siteImportResolvers } from "./site-import.resolvers.ts";
import { siteImportRoutes } from "./site-import.rest.ts";
import { siteImportTable } from "./site-import.tables.ts";

declare module "../module.ts" {
  interface ModuleLoaders {
    siteImports: { byId: DataLoader<string, SiteImport | null> };
  }
}

/** The siteImports module. */
export const siteImportsModule = defineModule({
  name: "siteImports",
  tables: ["site_imports", "site_import_idempotency_keys"],
  reads: siteImportReads,
  descriptors: [siteImportTable],
  computedColumns: siteImportComputedColumns,
  resolvers: siteImportResolvers,
  createLoaders: ({ byId }) => ({ byId: byId.loader(siteImportTable, SiteImport) }),
  restRoutes: siteImportRoutes,
  jobs: [runSiteImportJob, expireInterruptedImportsJob, pruneIdempotencyKeysJob],
  // The live subscription's events reach every instance's subscribers (`site_import.updated`, relayed to pub/sub).
  onEvent: liveRelay("site_import.updated"),
});
