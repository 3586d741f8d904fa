/**
 * Codegen mappers of this module: GraphQL type → the TypeScript type that backs it in resolvers
 * (`file#Export`, relative to this folder). Read by codegen.ts.
 */
export default {
  Application: "./application.model.ts#Application",
  Domain: "./application.model.ts#Domain",
  EnvironmentVariablesResult: "./manage.payloads.ts#EnvironmentVariablesPayload",
  DatabaseChange: "./manage.payloads.ts#DatabaseChangePayload",
  DeletionResult: "./manage.payloads.ts#DeletionPayload",
} satisfies Record<string, string>;
