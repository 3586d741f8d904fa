/** Resolvers of schema/organizations.graphql: thin calls into loaders and services. */
import type { Resolvers } from "../../generated/graphql.ts";
import { NotFoundError } from "../../shared/errors.ts";
import { checkPageSize, decodeCursor, toConnection } from "../../shared/pagination.ts";
import { requireOrganization } from "../access/index.ts";
import { addNotificationChannel, removeNotificationChannel } from "./notification-channel.service.ts";
import { changePlan, createOrganization, renameOrganization, setActiveOrganization } from "./organization.service.ts";

/** Organization, Plan, NotificationChannel, User and Viewer resolvers, and the organization mutations. */
export const organizationResolvers: Resolvers = {
  Query: {
    viewer: (_p, _a, ctx) => ctx.principal!,
    organizations: async (_p, _a, ctx) => {
      const ids = [...(await ctx.scope.memberships()).keys()];
      const orgs = await ctx.loaders.organizations.byId.loadMany(ids);
      return orgs.flatMap((o) => (o && !(o instanceof Error) ? [o] : []));
    },
    organization: async (_p, { id }, ctx) =>
      (await ctx.loaders.organizations.byId.load(id)) ?? Promise.reject(new NotFoundError("Organization", id)),
  },
  Mutation: {
    createOrganization: (_p, { input }, ctx) => createOrganization(ctx, input),
    renameOrganization: (_p, { id, name }, ctx) => renameOrganization(ctx, id, name),
    setActiveOrganization: (_p, { id }, ctx) => setActiveOrganization(ctx, id),
    changePlan: (_p, { organizationId, plan }, ctx) => changePlan(ctx, organizationId, plan),
    addNotificationChannel: (_p, { input }, ctx) => addNotificationChannel(ctx, input),
    removeNotificationChannel: (_p, { id }, ctx) => removeNotificationChannel(ctx, id),
  },
  Viewer: {
    user: async (p, _a, ctx) => (await ctx.loaders.organizations.userById.load(p.userId))!,
    authenticatedBy: (p) => (p.via === "session" ? "session" : "api_key"),
    activeOrganization: (p, _a, ctx) =>
      p.organizationId ? ctx.loaders.organizations.byId.load(p.organizationId) : null,
    role: async (_p, _a, ctx) => (await ctx.scope.active())?.role ?? null,
  },
  Organization: {
    __resolveReference: (ref, ctx) => ctx.loaders.organizations.byId.load(ref.id),
    plan: async (o, _a, ctx) => ({
      plan: (await ctx.loaders.organizations.planById.load(o.planId))!,
      organizationId: o.id,
    }),
    usage: (o, _a, ctx) => ctx.loaders.organizations.usageByOrganization.load(o.id),
    viewerRole: async (o, _a, ctx) => (await requireOrganization(ctx.scope, o.id)).role,
    projects: async (o, { first, after }, ctx) => {
      const size = checkPageSize(first ?? 20, 100);
      const page = await ctx.loaders.projects.page.load({
        organizationId: o.id,
        first: size,
        afterId: after ? decodeCursor(after) : null,
      });
      return toConnection(page.nodes, page.hasNextPage, () => ctx.loaders.projects.count.load(o.id));
    },
    notificationChannels: (o, _a, ctx) => ctx.loaders.organizations.notificationChannelsByOrganization.load(o.id),
  },
  Plan: {
    name: (p) => p.plan.name,
    quotas: ({ plan }) => ({
      projects: plan.maxProjects,
      applications: plan.maxApplications,
      databases: plan.maxDatabases,
      domains: plan.maxDomains,
    }),
    usage: (p, _a, ctx) => ctx.loaders.organizations.usageByOrganization.load(p.organizationId),
    features: (p) => p.plan.features,
  },
  User: {
    // Only the caller's own user record is resolvable by key.
    __resolveReference: (ref, ctx) =>
      ref.id === ctx.principal?.userId ? ctx.loaders.organizations.userById.load(ref.id) : null,
  },
};
