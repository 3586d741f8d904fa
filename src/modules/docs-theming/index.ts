/**
 * Module manifest: docs — docs-domain theming (spec "Docs-domain lookup and theme"): theme administration
 * (schema/docs-theming.graphql), the theme endpoint (`/o/:databaseId/api/theme`, `/api/theme`), the docs-host role
 * (`/api/docs/lookup`, `/api/docs/sync`), the `/docs-theme.js` loader and the `docs.sync` job.
 */
import { defineModule } from "../module.ts";
import { docsSyncJob } from "./docs.jobs.ts";
import { docsComputedColumns, docsReads } from "./docs.reads.ts";
import { docsResolvers } from "./docs.resolvers.ts";
import { docsRoutes } from "./docs.rest.ts";
import { docsThemeTable } from "./docs.tables.ts";

/** The docs module. */
export const docsModule = defineModule({
  name: "docs",
  tables: ["docs_host_registrations", "docs_sync_state", "docs_themes"],
  reads: docsReads,
  descriptors: [docsThemeTable],
  computedColumns: docsComputedColumns,
  resolvers: docsResolvers,
  // Docs sites read a theme and look a hostname up; instances synchronise with their license key (checked inside).
  publicRootFields: ["publicDocsTheme", "docsHostLookup", "syncDocsRegistrations"],
  restRoutes: docsRoutes,
  jobs: [docsSyncJob],
});

// The public surface: what other modules may import (they import nothing else of this folder).
export { docsHostnameOwner, type ExportedDocsTheme, exportDocsTheme } from "./docs-theme.export.ts";
// For the organization import: the `setDocsTheme` mutation's service.
export { setDocsTheme } from "./docs-theme.service.ts";
