/** Resolvers of schema/docs.graphql: thin calls into the docs services. */
import type { Resolvers } from "../../generated/graphql.ts";
import { authenticateLicense, lookupDocsHostname, syncDocsRegistrations } from "./docs-host.service.ts";
import { cloudUrlOf, getDocsTheme, getPublicDocsTheme, loaderSnippet, setDocsTheme } from "./docs-theme.service.ts";

/** Docs theme queries and mutations, and the docs-host role's lookup and synchronisation. */
export const docsResolvers: Resolvers = {
  Query: {
    docsTheme: (_p, { organizationId }, ctx) => getDocsTheme(ctx, organizationId),
    publicDocsTheme: (_p, { databaseId }, ctx) => getPublicDocsTheme(ctx.knex, databaseId ?? null),
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
