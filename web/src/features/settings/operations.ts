/**
 * The GraphQL documents of the settings page (schema/api-keys.graphql, schema/agent.graphql, schema/team.graphql):
 * API keys, the agent token, members, invitations and grants. Typed by the codegen client preset
 * (`npm run codegen`).
 */
import { graphql } from "../../gql/index.ts";

export type { MemberRowFragment as MemberRow, Role } from "../../gql/graphql.ts";

export const MEMBER_ROW = graphql(`
  fragment MemberRow on Member {
    id role createdAt
    user { id email name }
    grants { id createdAt project { id name } application { id name } }
  }
`);

export const SETTINGS = graphql(`
  query Settings($id: ID!) {
    organization(id: $id) {
      id
      name
      viewerRole
      apiKeys { id name prefix createdAt lastUsedAt current createdBy { email } }
      members { ...MemberRow }
      invitations { id email role status createdAt expiresAt link }
      projects(first: 100) { edges { node { id name } } }
    }
    agentToken { prefix createdAt expiresAt lastUsedAt }
  }
`);

export const CREATE_API_KEY = graphql(`
  mutation CreateApiKey($name: String!) { createApiKey(name: $name) { secret apiKey { id } } }
`);

export const DELETE_API_KEY = graphql(`
  mutation DeleteApiKey($id: ID!) { deleteApiKey(id: $id) }
`);

export const CREATE_AGENT_TOKEN = graphql(`
  mutation CreateAgentToken($input: CreateAgentTokenInput) { createAgentToken(input: $input) { token } }
`);

export const REVOKE_AGENT_TOKEN = graphql(`
  mutation RevokeAgentToken { revokeAgentToken }
`);

export const INVITE_MEMBER = graphql(`
  mutation InviteMember($input: InviteMemberInput!) { inviteMember(input: $input) { id } }
`);

export const RESEND_INVITATION = graphql(`
  mutation ResendInvitation($id: ID!) { resendInvitation(id: $id) { id } }
`);

export const CANCEL_INVITATION = graphql(`
  mutation CancelInvitation($id: ID!) { cancelInvitation(id: $id) { id } }
`);

export const UPDATE_MEMBER_ROLE = graphql(`
  mutation UpdateMemberRole($memberId: ID!, $role: Role!) { updateMemberRole(memberId: $memberId, role: $role) { id } }
`);

export const REMOVE_MEMBER = graphql(`
  mutation RemoveMember($memberId: ID!) { removeMember(memberId: $memberId) }
`);

export const GRANT_ACCESS = graphql(`
  mutation GrantAccess($input: GrantAccessInput!) { grantAccess(input: $input) { id } }
`);

export const REVOKE_ACCESS = graphql(`
  mutation RevokeAccess($grantId: ID!) { revokeAccess(grantId: $grantId) }
`);
