/**
 * Codegen mappers of this module: GraphQL type → the TypeScript type that backs it in resolvers
 * (`file#Export`, relative to this folder). Read by codegen.ts.
 */
export default {
  Organization: "./organization.model.ts#Organization",
  Plan: "./organization.model.ts#OrganizationPlan",
  NotificationChannel: "./notification-channel.model.ts#NotificationChannel",
  User: "./organization.model.ts#User",
  Viewer: "../../auth/caller.ts#Caller",
} satisfies Record<string, string>;
