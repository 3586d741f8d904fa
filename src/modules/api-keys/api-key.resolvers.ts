/** Resolvers of schema/api-keys.graphql: thin calls into api-key.service.ts and the loaders. */
import type { Resolvers } from "../../generated/graphql.ts";
import { createApiKey, deleteApiKey } from "./api-key.service.ts";

/** ApiKey resolvers, `Organization.apiKeys`, `createApiKey` and `deleteApiKey`. */
export const apiKeyResolvers: Resolvers = {
  Mutation: {
    createApiKey: (_p, { name }, ctx) => createApiKey(ctx, name),
    deleteApiKey: (_p, { id }, ctx) => deleteApiKey(ctx, id),
  },
  Organization: {
    apiKeys: (o, _a, ctx) => ctx.loaders.apiKeys.byOrganization.load(o.id),
  },
  ApiKey: {
    name: (k) => k.name ?? "",
    prefix: (k) => k.start ?? "",
    // The key making this request is in use now; its stored time is written in the background (src/auth/caller.ts).
    lastUsedAt: (k, _a, ctx) => (k.id === ctx.principal?.apiKeyId ? new Date() : k.lastRequest),
    createdBy: async (k, _a, ctx) => (await ctx.loaders.organizations.userById.load(k.referenceId))!,
    current: (k, _a, ctx) => k.id === ctx.principal?.apiKeyId,
  },
};
