/**
 * Codegen mappers of this module: GraphQL type → the TypeScript type that backs it in resolvers
 * (`file#Export`, relative to this folder). Read by codegen.ts.
 */
export default {
  Invitation: "./invitation.model.ts#Invitation",
  InvitationLinkInfo: "./invitation.service.ts#InvitationLinkInfo",
} satisfies Record<string, string>;
