/**
 * Codegen mappers of this module: GraphQL type → the TypeScript type that backs it in resolvers
 * (`file#Export`, relative to this folder). Read by codegen.ts.
 */
export default {
  GitProvider: "./provider.models.ts#GitProvider",
  ContainerRegistry: "./provider.models.ts#ContainerRegistry",
  SshKey: "./provider.models.ts#SshKey",
} satisfies Record<string, string>;
