/** Resolvers of schema/projects.graphql: thin calls into loaders. */
import type { Resolvers } from "../../generated/graphql.ts";
import { NotFoundError } from "../../shared/errors.ts";
import { checkPageSize, decodeCursor, toConnection } from "../../shared/pagination.ts";
import { createProject, deleteProject } from "./organization-projects.service.ts";

/** Project, Environment and project query resolvers. */
export const projectResolvers: Resolvers = {
  Query: {
    project: async (_p, { id }, ctx) =>
      (await ctx.loaders.projects.byId.load(id)) ?? Promise.reject(new NotFoundError("Project", id)),
    projects: async (_p, { first, after }, ctx) => {
      const size = checkPageSize(first ?? 20, 100);
      const afterId = after ? decodeCursor(after) : null;
      const organizationId = ctx.principal?.organizationId;
      if (!organizationId) return toConnection([], false, async () => 0);
      const page = await ctx.loaders.projects.page.load({ organizationId, first: size, afterId });
      return toConnection(page.nodes, page.hasNextPage, () => ctx.loaders.projects.count.load(organizationId));
    },
  },
  Mutation: {
    createProject: (_p, { input }, ctx) => createProject(ctx, input),
    deleteProject: (_p, { id }, ctx) => deleteProject(ctx, id),
  },
  Project: {
    __resolveReference: (ref, ctx) => ctx.loaders.projects.byId.load(ref.id),
    organization: async (p, _a, ctx) => (await ctx.loaders.organizations.byId.load(p.organizationId))!,
    environments: (p, _a, ctx) => ctx.loaders.projects.environmentsByProject.load(p.id),
  },
  Environment: {
    __resolveReference: (ref, ctx) => ctx.loaders.projects.environmentById.load(ref.id),
    project: async (e, _a, ctx) => (await ctx.loaders.projects.byId.load(e.projectId))!,
  },
};
