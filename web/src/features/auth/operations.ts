/**
 * The GraphQL documents of the invitation page (schema/team.graphql): the link's details without credentials,
 * accepting it signed in, and signing up with it. Typed by the codegen client preset (`npm run codegen`).
 */
import { graphql } from "../../gql/index.ts";

export const INVITATION_LINK = graphql(`
  query InvitationLink($token: String!) {
    invitationLink(token: $token) { valid status organizationName email role expiresAt accountExists }
  }
`);

export const ACCEPT_INVITATION = graphql(`
  mutation AcceptInvitation($token: String!) {
    acceptInvitation(token: $token) { id role organization { id name } }
  }
`);

export const SIGN_UP_WITH_INVITATION = graphql(`
  mutation SignUpWithInvitation($input: SignUpWithInvitationInput!) {
    signUpWithInvitation(input: $input) { id email }
  }
`);
