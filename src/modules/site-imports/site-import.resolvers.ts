/** Resolvers of schema/site-imports.graphql: thin calls into the site import service, events and loaders. */
import type { Resolvers } from "../../generated/graphql.ts";
import { type SiteImportEvent, siteImportUpdates } from "./site-import.events.ts";
import { maskedInputConfig, storedInput } from "./site-import.input.ts";
import type { SiteImport } from "./site-import.model.ts";
import { deleteSiteImport, importSite, previewSiteImport, retrySiteImport } from "./site-import.service.ts";

/** Site import queries, mutations, subscription and types. */
export const siteImportResolvers: Resolvers = {
  Query: {
    previewSiteImport: (_p, { input, idempotencyKey }, ctx) => previewSiteImport(ctx, input, idempotencyKey),
  },
  Mutation: {
    importSite: (_p, { input, idempotencyKey }, ctx) => importSite(ctx, input, idempotencyKey),
    retrySiteImport: (_p, { id }, ctx) => retrySiteImport(ctx, id),
    deleteSiteImport: (_p, { id, rollbackResources }, ctx) => deleteSiteImport(ctx, id, rollbackResources ?? false),
  },
  Subscription: {
    siteImportUpdated: {
      subscribe: (_p, { id, after }, ctx) => siteImportUpdates(ctx, id ?? null, after ?? null),
      resolve: (event: SiteImportEvent) => event,
    },
  },
  SiteImportResult: {
    importId: ({ record }) => record.id,
    status: ({ record }) => record.status,
    projectId: ({ record }) => record.projectId,
    applicationId: ({ record }) => record.applicationId,
    databaseId: ({ record }) => record.databaseId,
    databaseType: ({ record, input }) => (record.databaseId ? (input.database?.type ?? null) : null),
    databaseServiceHost: ({ record }) => record.databaseServiceHost,
    domainId: ({ record }) => record.domainId,
    errorMessage: ({ record }) => record.errorMessage,
    errorStep: ({ record }) => record.errorStep,
    siteImport: ({ record }) => record,
  },
  SiteImportUpdate: {
    // Only the id: the compiled reads read the record by id with the subscriber's selection (one read per event
    // for every subscriber with the same statement).
    siteImport: (event) => event.record as SiteImport | null,
  },
  // Decrypted from the row's `input_encrypted` (every other field is compiled SQL: site-import.reads.ts).
  SiteImport: {
    inputConfig: (r, _a, ctx) => maskedInputConfig(storedInput(ctx.services.secrets, r)),
    databaseType: (r, _a, ctx) => (r.databaseId ? (storedInput(ctx.services.secrets, r).database?.type ?? null) : null),
  },
};
