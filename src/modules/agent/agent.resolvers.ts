/**
 * Resolvers of schema/agent.graphql: the mutations, thin calls into agent-token.service.ts. `Query.agentToken` is
 * compiled SQL (agent.reads.ts).
 */
import type { Resolvers } from "../../generated/graphql.ts";
import { createAgentToken, revokeAgentToken } from "./agent-token.service.ts";

/** `Mutation.createAgentToken`, `Mutation.revokeAgentToken`. */
export const agentResolvers: Resolvers = {
  Mutation: {
    createAgentToken: (_p, { input }, ctx) => createAgentToken(ctx, { expiresInDays: input?.expiresInDays ?? null }),
    revokeAgentToken: (_p, _a, ctx) => revokeAgentToken(ctx),
  },
};
