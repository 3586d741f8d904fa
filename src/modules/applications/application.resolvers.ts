/** Resolvers of schema/applications.graphql: thin calls into loaders. */
import type { Resolvers } from "../../generated/graphql.ts";
import { NotFoundError } from "../../shared/errors.ts";
import { applicationsKey } from "./application.rows.ts";

/** Application, Domain and Database resolvers, and the applications and databases of an Environment. */
export const applicationResolvers: Resolvers = {
  Query: {
    application: async (_p, { id }, ctx) =>
      (await ctx.loaders.applications.byId.load(id)) ?? Promise.reject(new NotFoundError("Application", id)),
  },
  Application: {
    __resolveReference: (ref, ctx) => ctx.loaders.applications.byId.load(ref.id),
    source: (a) => ({ type: a.sourceType, ...a.source }),
    project: async (a, _x, ctx) => (await ctx.loaders.projects.byId.load(a.projectId))!,
    environment: async (a, _x, ctx) => (await ctx.loaders.projects.environmentById.load(a.environmentId))!,
    domains: (a, _x, ctx) => a.prefetched?.domains ?? ctx.loaders.applications.domainsByApplication.load(a.id),
    environmentVariables: (a, _x, ctx) => ctx.loaders.applications.envVarsByApplication.load(a.id),
  },
  // The environment's applications and databases are this module's rows (Environment is the projects module's type).
  Environment: {
    // Domains and deployments selected under `applications` come in the same statement (look-ahead).
    applications: (e, _a, ctx, info) => ctx.loaders.applications.byEnvironment.load(applicationsKey(e.id, info)),
    databases: (e, _a, ctx) => ctx.loaders.applications.databasesByEnvironment.load(e.id),
  },
  Domain: {
    __resolveReference: (ref, ctx) => ctx.loaders.applications.domainById.load(ref.id),
    application: async (d, _x, ctx) => (await ctx.loaders.applications.byId.load(d.applicationId))!,
  },
  Database: {
    __resolveReference: (ref, ctx) => ctx.loaders.applications.databaseById.load(ref.id),
    user: (d) => d.username,
    environment: async (d, _x, ctx) => (await ctx.loaders.projects.environmentById.load(d.environmentId))!,
  },
};
