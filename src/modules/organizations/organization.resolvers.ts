/** Resolvers of schema/organizations.graphql: thin calls into loaders and the access scope. */
import type { Resolvers } from "../../generated/graphql.ts";
import type { Context } from "../../server/context.ts";
import { NotFoundError } from "../../server/errors.ts";
import { checkPageSize, decodeCursor, toConnection } from "../../server/pagination.ts";

/** The caller's membership in `organizationId`. @throws NotFoundError when it is not a member. */
async function roleIn(ctx: Context, organizationId: string) {
  const access = await ctx.scope.forOrg(organizationId);
  if (!access) throw new NotFoundError("Organization", organizationId);
  return access;
}

/** Organization, Plan, User and Viewer resolvers. */
export const organizationResolvers: Resolvers = {
  Query: {
    viewer: (_p, _a, ctx) => ctx.principal!,
    organizations: async (_p, _a, ctx) => {
      const ids = [...(await ctx.scope.memberships()).keys()];
      const orgs = await ctx.loaders.organizationById.loadMany(ids);
      return orgs.flatMap((o) => (o && !(o instanceof Error) ? [o] : []));
    },
    organization: async (_p, { id }, ctx) =>
      (await ctx.loaders.organizationById.load(id)) ?? Promise.reject(new NotFoundError("Organization", id)),
  },
  Viewer: {
    user: async (p, _a, ctx) => (await ctx.loaders.userById.load(p.userId))!,
    authenticatedBy: (p) => (p.via === "session" ? "session" : "api_key"),
    activeOrganization: (p, _a, ctx) => (p.organizationId ? ctx.loaders.organizationById.load(p.organizationId) : null),
    role: async (_p, _a, ctx) => (await ctx.scope.active())?.role ?? null,
  },
  Organization: {
    __resolveReference: (ref, ctx) => ctx.loaders.organizationById.load(ref.id),
    plan: async (o, _a, ctx) => (await ctx.loaders.planById.load(o.planId))!,
    usage: (o, _a, ctx) => ctx.loaders.usageByOrganization.load(o.id),
    viewerRole: async (o, _a, ctx) => (await roleIn(ctx, o.id)).role,
    projects: async (o, { first, after }, ctx) => {
      const size = checkPageSize(first ?? 20, 100);
      const page = await ctx.loaders.projectPage.load({
        organizationId: o.id,
        first: size,
        afterId: after ? decodeCursor(after) : null,
      });
      return toConnection(page.nodes, page.hasNextPage, () => ctx.loaders.projectCount.load(o.id));
    },
  },
  Plan: {
    quotas: (p) => ({
      projects: p.maxProjects,
      applications: p.maxApplications,
      databases: p.maxDatabases,
      domains: p.maxDomains,
    }),
  },
  User: {
    // Only the caller's own user record is resolvable by key.
    __resolveReference: (ref, ctx) => (ref.id === ctx.principal?.userId ? ctx.loaders.userById.load(ref.id) : null),
  },
};
