/**
 * Resolvers of schema/organizations.graphql: the organization mutations. Every read (viewer, organizations, plans,
 * usage, users) is compiled SQL (organization.reads.ts).
 */
import type { Resolvers } from "../../generated/graphql.ts";
import { addNotificationChannel, removeNotificationChannel } from "./notification-channel.service.ts";
import { changePlan, createOrganization, renameOrganization, setActiveOrganization } from "./organization.service.ts";

/** The organization mutations. */
export const organizationResolvers: Resolvers = {
  Mutation: {
    createOrganization: (_p, { input }, ctx) => createOrganization(ctx, input),
    renameOrganization: (_p, { id, name }, ctx) => renameOrganization(ctx, id, name),
    setActiveOrganization: (_p, { id }, ctx) => setActiveOrganization(ctx, id),
    changePlan: (_p, { organizationId, plan }, ctx) => changePlan(ctx, organizationId, plan),
    addNotificationChannel: (_p, { input }, ctx) => addNotificationChannel(ctx, input),
    removeNotificationChannel: (_p, { id }, ctx) => removeNotificationChannel(ctx, id),
  },
};
