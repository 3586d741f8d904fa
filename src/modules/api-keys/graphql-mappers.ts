/**
 * Codegen mappers of this module: GraphQL type → the TypeScript type that backs it in resolvers
 * (`file#Export`, relative to this folder). Read by codegen.ts.
 */
export default {
  ApiKey: "./api-key.model.ts#ApiKey",
  CreateApiKeyPayload: "./api-key.service.ts#CreatedApiKey",
} satisfies Record<string, string>;
