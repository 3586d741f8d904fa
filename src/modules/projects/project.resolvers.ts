/** Resolvers of schema/projects.graphql: thin calls into loaders. */
import type { Resolvers } from "../../generated/graphql.ts";
import { NotFoundError } from "../../shared/errors.ts";
import { checkPageSize, decodeCursor, toConnection } from "../../shared/pagination.ts";

/** Project, Environment and project query resolvers. */
export const projectResolvers: Resolvers = {
  Query: {
    project: async (_p, { id }, ctx) =>
      (await ctx.loaders.projectById.load(id)) ?? Promise.reject(new NotFoundError("Project", id)),
    projects: async (_p, { first, after }, ctx) => {
      const size = checkPageSize(first ?? 20, 100);
      const afterId = after ? decodeCursor(after) : null;
      const organizationId = ctx.principal?.organizationId;
      if (!organizationId) return toConnection([], false, async () => 0);
      const page = await ctx.loaders.projectPage.load({ organizationId, first: size, afterId });
      return toConnection(page.nodes, page.hasNextPage, () => ctx.loaders.projectCount.load(organizationId));
    },
  },
  Project: {
    __resolveReference: (ref, ctx) => ctx.loaders.projectById.load(ref.id),
    organization: async (p, _a, ctx) => (await ctx.loaders.organizationById.load(p.organizationId))!,
    environments: (p, _a, ctx) => ctx.loaders.environmentsByProject.load(p.id),
  },
  Environment: {
    __resolveReference: (ref, ctx) => ctx.loaders.environmentById.load(ref.id),
    project: async (e, _a, ctx) => (await ctx.loaders.projectById.load(e.projectId))!,
    applications: (e, _a, ctx) => ctx.loaders.applicationsByEnvironment.load(e.id),
    databases: (e, _a, ctx) => ctx.loaders.databasesByEnvironment.load(e.id),
  },
};
