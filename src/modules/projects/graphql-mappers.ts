/**
 * Codegen mappers of this module: GraphQL type → the TypeScript type that backs it in resolvers
 * (`file#Export`, relative to this folder). Read by codegen.ts.
 */
export default {
  Project: "./project.model.ts#Project",
  ProjectConnection: "./project.model.ts#ProjectConnection",
  Environment: "./project.model.ts#Environment",
} satisfies Record<string, string>;
