/**
 * Resolvers of schema/providers.graphql: the mutations, thin calls into the provider service. Providers are read
 * by compiled SQL (provider.reads.ts).
 */
import type { Resolvers } from "../../generated/graphql.ts";
import { createContainerRegistry, createGitProvider, createSshKey } from "./provider.service.ts";

/** The provider mutations. */
export const providerResolvers: Resolvers = {
  Mutation: {
    createGitProvider: (_p, { input }, ctx) => createGitProvider(ctx, input),
    createContainerRegistry: (_p, { input }, ctx) => createContainerRegistry(ctx, input),
    createSshKey: (_p, { input }, ctx) => createSshKey(ctx, input),
  },
};
