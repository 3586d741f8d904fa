/**
 * Resolvers of schema/docs-theming.graphql: thin calls into the docs services, and the fields built from configuration
 * (`cnameTarget`, `themeUrl`, `loaderSnippet`), from the row the compiled read carries (`__row`). Themes and their
 * registrations are read by compiled SQL (docs.reads.ts), `setDocsTheme`'s answer re-read by id.
 */
import type { Resolvers } from "../../generated/graphql.ts";
import { authenticateLicense, lookupDocsHostname, syncDocsRegistrations } from "./docs-host.service.ts";
import { cloudUrlOf, loaderSnippet, setDocsTheme } from "./docs-theme.service.ts";

/** The docs-host lookup, the mutations, a registration's CNAME target, and DocsTheme's theme URL and loader snippet. */
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
  DocsRegistration: {
    cnameTarget: (_r, _a, ctx) => ctx.services.config.SKIFF_DOCS_CNAME_TARGET,
  },
  DocsTheme: {
    themeUrl: (t, _a, ctx) => `${cloudUrlOf(ctx.services.config.SKIFF_BASE_URL, t.databaseId)}/api/theme`,
    loaderSnippet: (_t, _a, ctx) => loaderSnippet(ctx.services.config),
  },
};
