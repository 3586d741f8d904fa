/** Resolvers of schema/applications.graphql: thin calls into loaders. */
import type { Resolvers } from "../../generated/graphql.ts";
import { NotFoundError } from "../../shared/errors.ts";
import { checkPageSize } from "../../shared/pagination.ts";

/** Application, Domain, Database and Deployment resolvers. */
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
    deployments: (a, { first }, ctx) => {
      const size = checkPageSize(first ?? 10, 50);
      const prefetched = a.prefetched?.deployments;
      if (prefetched && prefetched.first >= size) return prefetched.rows.slice(0, size);
      return ctx.loaders.deployments.byApplication.load({ applicationId: a.id, first: size });
    },
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
  Deployment: {
    __resolveReference: (ref, ctx) => ctx.loaders.deployments.byId.load(ref.id),
    application: async (d, _x, ctx) => (await ctx.loaders.applications.byId.load(d.applicationId))!,
  },
};
