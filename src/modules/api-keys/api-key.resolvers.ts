/** Resolvers of schema/api-keys.graphql: the mutations. API keys are read by compiled SQL (api-key.reads.ts). */
import type { Resolvers } from "../../generated/graphql.ts";
import { createApiKey, deleteApiKey } from "./api-key.service.ts";

/** `createApiKey` and `deleteApiKey`. */
export const apiKeyResolvers: Resolvers = {
  Mutation: {
    createApiKey: (_p, { name }, ctx) => createApiKey(ctx, name),
    deleteApiKey: (_p, { id }, ctx) => deleteApiKey(ctx, id),
  },
};
