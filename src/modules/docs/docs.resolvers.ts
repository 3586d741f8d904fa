/**
 * Resolvers of schema/docs.graphql: thin calls into the docs services, and the theme fields built from
 * configuration, from the theme's row (the compiled read's `__row`, or the row `setDocsTheme` returns). Themes are
 * read by compiled SQL (docs.sql-reads.ts).
 */
import type { Resolvers } from "../../generated/graphql.ts";
import { authenticateLicense, lookupDocsHostname, syncDocsRegistrations } from "./docs-host.service.ts";
import { cloudUrlOf, loaderSnippet, setDocsTheme } from "./docs-theme.service.ts";

/** The docs-host lookup, the mutations, and DocsTheme's registration, theme URL and loader snippet. */
export const docsResolvers: Resolvers = {
  Query: {
    docsHostLookup: (_p, { hostname }, ctx) => lookupDocsHostname(ctx.knex, hostname),
  },
  Mutation: {
    setDocsTheme: (_p, { organizationId, input }, ctx) => setDocsTheme(ctx, organizationId, input),
    syncDocsRegistrations: (_p, { licenseKey, registrations }, ctx) => {
      const digest = authenticateLicense(ctx.services.config, licenseKey);
      return syncDocsRegistrations(ctx.knex, ctx.services.config, digest, registrations, ctx.services.now());
    },
  },
  DocsTheme: {
    docsRegistration: (t, _a, ctx) =>
      t.docsHostname
        ? {
            hostname: t.docsHostname,
            syncedAt: t.docsSyncedAt,
            dns: t.docsDns,
            cnameTarget: ctx.services.config.SKIFF_DOCS_CNAME_TARGET,
            conflict: t.docsConflict,
          }
        : null,
    themeUrl: (t, _a, ctx) => `${cloudUrlOf(ctx.services.config.SKIFF_BASE_URL, t.databaseId)}/api/theme`,
    loaderSnippet: (_t, _a, ctx) => loaderSnippet(ctx.services.config),
  },
};
