/**
 * The GraphQL documents the pages send (schema/*.graphql). `graphql()` comes from GraphQL Code Generator's client
 * preset (`npm run codegen` writes web/src/gql/): each document is typed with its result and variables.
 */
import { graphql } from "./gql/index.ts";

export type {
  MemberRowFragment as MemberRow,
  Role,
  SiteImportRowFragment as SiteImportRow,
  SiteImportStatus as ImportStatus,
} from "./gql/graphql.ts";

export const VIEWER = graphql(`
  query Viewer {
    viewer {
      user { id email name twoFactorEnabled }
      activeOrganization { id name }
      role
    }
    organizations { id name viewerRole plan { name } }
  }
`);

export const SET_ACTIVE_ORGANIZATION = graphql(`
  mutation SetActiveOrganization($id: ID!) {
    setActiveOrganization(id: $id) { activeOrganization { id } }
  }
`);

export const CREATE_ORGANIZATION = graphql(`
  mutation CreateOrganization($input: CreateOrganizationInput!) {
    createOrganization(input: $input) { id name }
  }
`);

export const SITE_IMPORT_ROW = graphql(`
  fragment SiteImportRow on SiteImport {
    id name status errorStep errorMessage attempts createdAt updatedAt finishedAt
    projectId applicationId databaseId domainId databaseType databaseServiceHost
    project { id name }
    application { id name appName }
    database { id name }
    domain { id host }
  }
`);

export const SITE_IMPORTS = graphql(`
  query SiteImports($first: Int!, $offset: Int!) {
    siteImports(first: $first, offset: $offset) {
      totalCount
      edges { node { ...SiteImportRow } }
    }
  }
`);

export const SITE_IMPORT_UPDATED = graphql(`
  subscription SiteImportUpdated {
    siteImportUpdated { importId status siteImport { ...SiteImportRow } }
  }
`);

export const IMPORT_PREREQUISITES = graphql(`
  query ImportPrerequisites($id: ID!) {
    organization(id: $id) {
      id
      gitProviders { id name type }
      sshKeys { id name }
      containerRegistries { id name }
    }
  }
`);

export const PREVIEW_SITE_IMPORT = graphql(`
  query PreviewSiteImport($input: SiteImportInput!) {
    previewSiteImport(input: $input) {
      valid warnings errors
      resources {
        project { name }
        database { type name }
        application { name sourceType buildType }
        domain { host }
      }
    }
  }
`);

export const IMPORT_SITE = graphql(`
  mutation ImportSite($input: SiteImportInput!) {
    importSite(input: $input) { importId status errorStep errorMessage siteImport { ...SiteImportRow } }
  }
`);
export const RETRY_SITE_IMPORT = graphql(`
  mutation RetrySiteImport($id: ID!) {
    retrySiteImport(id: $id) { importId status errorStep errorMessage siteImport { ...SiteImportRow } }
  }
`);
export const DELETE_SITE_IMPORT = graphql(`
  mutation DeleteSiteImport($id: ID!, $rollbackResources: Boolean!) {
    deleteSiteImport(id: $id, rollbackResources: $rollbackResources) { id rolledBack deletedProjectId }
  }
`);

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
