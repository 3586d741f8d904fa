/**
 * Codegen mappers of this module: GraphQL type → the TypeScript type that backs it in resolvers
 * (`file#Export`, relative to this folder). Read by codegen.ts.
 */
export default {
  Member: "./member.model.ts#Member",
  MemberGrant: "./member.model.ts#MemberGrant",
} satisfies Record<string, string>;
