/** Resolvers of schema/agent.graphql: thin calls into agent-token.service.ts. */
import type { Resolvers } from "../../generated/graphql.ts";
import { createAgentToken, getAgentToken, revokeAgentToken } from "./agent-token.service.ts";

/** `Query.agentToken`, `Mutation.createAgentToken`, `Mutation.revokeAgentToken`. */
export const agentResolvers: Resolvers = {
  Query: {
    agentToken: (_p, _a, ctx) => getAgentToken(ctx),
  },
  Mutation: {
    createAgentToken: (_p, { input }, ctx) => createAgentToken(ctx, { expiresInDays: input?.expiresInDays ?? null }),
    revokeAgentToken: (_p, _a, ctx) => revokeAgentToken(ctx),
  },
};
