/** Resolvers of schema/providers.graphql: thin calls into the provider service and loaders. */
import type { Resolvers } from "../../generated/graphql.ts";
import { createContainerRegistry, createGitProvider, createSshKey } from "./provider.service.ts";

/** Git provider, container registry and SSH key resolvers. */
export const providerResolvers: Resolvers = {
  Mutation: {
    createGitProvider: (_p, { input }, ctx) => createGitProvider(ctx, input),
    createContainerRegistry: (_p, { input }, ctx) => createContainerRegistry(ctx, input),
    createSshKey: (_p, { input }, ctx) => createSshKey(ctx, input),
  },
  Organization: {
    gitProviders: (o, _a, ctx) => ctx.loaders.providers.gitProvidersByOrganization.load(o.id),
    containerRegistries: (o, _a, ctx) => ctx.loaders.providers.containerRegistriesByOrganization.load(o.id),
    sshKeys: (o, _a, ctx) => ctx.loaders.providers.sshKeysByOrganization.load(o.id),
  },
};
