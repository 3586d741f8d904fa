/**
 * Codegen mappers of this module: GraphQL type → the TypeScript type that backs it in resolvers
 * (`file#Export`, relative to this folder). Read by codegen.ts.
 */
export default {
  Deployment: "./deployment.model.ts#Deployment",
  DeploymentUpdate: "./deployment.events.ts#DeploymentEvent",
} satisfies Record<string, string>;
