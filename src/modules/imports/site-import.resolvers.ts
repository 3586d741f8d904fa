/** Resolvers of schema/imports.graphql: thin calls into the site import service, events and loaders. */
import type { Resolvers } from "../../generated/graphql.ts";
import { type SiteImportEvent, siteImportUpdates } from "./site-import.events.ts";
import { maskedInputConfig, storedInput } from "./site-import.input.ts";
import { IMPORT_STEPS } from "./site-import.model.ts";
import {
  deleteSiteImport,
  getSiteImport,
  importSite,
  listSiteImports,
  previewSiteImport,
  retrySiteImport,
} from "./site-import.service.ts";

/** Site import queries, mutations, subscription and types. */
export const siteImportResolvers: Resolvers = {
  Query: {
    siteImports: (_p, args, ctx) => listSiteImports(ctx, args),
    siteImport: (_p, { id }, ctx) => getSiteImport(ctx, id),
    previewSiteImport: (_p, { input }, ctx) => previewSiteImport(ctx, input),
  },
  Mutation: {
    importSite: (_p, { input }, ctx) => importSite(ctx, input),
    retrySiteImport: (_p, { id }, ctx) => retrySiteImport(ctx, id),
    deleteSiteImport: (_p, { id, rollbackResources }, ctx) => deleteSiteImport(ctx, id, rollbackResources ?? false),
  },
  Subscription: {
    siteImportUpdated: {
      subscribe: (_p, { id }, ctx) => siteImportUpdates(ctx, id ?? null),
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
    siteImport: (event) => event.record,
  },
  SiteImport: {
    __resolveReference: (ref, ctx) => ctx.loaders.siteImports.byId.load(ref.id),
    organization: async (r, _a, ctx) => (await ctx.loaders.organizations.byId.load(r.organizationId))!,
    steps: (r) => IMPORT_STEPS.map((step) => ({ step, status: r.steps?.[step] ?? "pending" })),
    inputConfig: (r, _a, ctx) => maskedInputConfig(storedInput(ctx.services.secrets, r)),
    databaseType: (r, _a, ctx) => (r.databaseId ? (storedInput(ctx.services.secrets, r).database?.type ?? null) : null),
    project: (r, _a, ctx) => (r.projectId ? ctx.loaders.projects.byId.load(r.projectId) : null),
    database: (r, _a, ctx) => (r.databaseId ? ctx.loaders.applications.databaseById.load(r.databaseId) : null),
    application: (r, _a, ctx) => (r.applicationId ? ctx.loaders.applications.byId.load(r.applicationId) : null),
    domain: (r, _a, ctx) => (r.domainId ? ctx.loaders.applications.domainById.load(r.domainId) : null),
    deployment: (r, _a, ctx) => (r.deploymentId ? ctx.loaders.deployments.byId.load(r.deploymentId) : null),
  },
};
