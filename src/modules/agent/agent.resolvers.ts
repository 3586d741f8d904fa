/** Resolvers of schema/agent.graphql: thin calls into agent-token.service.ts. */
import type { Resolvers } from "../../generated/graphql.ts";
import { createAgentToken, getAgentToken, revokeAgentToken } from "./agent-token.service.ts";

/** `Query.agentToken`, `Mutation.createAgentToken`, `Mutation.revokeAgentToken`. */
export const agentResolvers: Resolvers = {
  Query: {
    agentToken: (_p, _a, ctx) => getAgentToken(ctx.knex, ctx.scope),
  },
  Mutation: {
    createAgentToken: (_p, { input }, ctx) =>
      createAgentToken(ctx.knex, ctx.scope, { expiresInDays: input?.expiresInDays ?? null }),
    revokeAgentToken: (_p, _a, ctx) => revokeAgentToken(ctx.knex, ctx.scope),
  },
};
