/**
 * The GraphQL documents the pages send (schema/*.graphql) and the shapes of their results.
 */
import { gql } from "@urql/core";

/** A role inside an organization. */
export type Role = "owner" | "admin" | "member";
/** Status of an import record (spec: Import status). */
export type ImportStatus = "pending" | "success" | "partial" | "failed";

/** Organization as listed by the switcher. */
export interface OrgSummary {
  id: string;
  name: string;
  viewerRole: Role;
  plan: { name: string };
}

export const VIEWER = gql`
  query Viewer {
    viewer {
      user { id email name twoFactorEnabled }
      activeOrganization { id name }
      role
    }
    organizations { id name viewerRole plan { name } }
  }
`;
/** Result of {@link VIEWER}. */
export interface ViewerData {
  viewer: {
    user: { id: string; email: string; name: string; twoFactorEnabled: boolean };
    activeOrganization: { id: string; name: string } | null;
    role: Role | null;
  };
  organizations: OrgSummary[];
}

export const SET_ACTIVE_ORGANIZATION = gql`
  mutation SetActiveOrganization($id: ID!) {
    setActiveOrganization(id: $id) { activeOrganization { id } }
  }
`;

export const CREATE_ORGANIZATION = gql`
  mutation CreateOrganization($input: CreateOrganizationInput!) {
    createOrganization(input: $input) { id name }
  }
`;

const SITE_IMPORT_FIELDS = `
  id name status errorStep errorMessage attempts createdAt updatedAt finishedAt
  projectId applicationId databaseId domainId databaseType databaseServiceHost
  project { id name }
  application { id name appName }
  database { id name }
  domain { id host }
`;

/** An import record as the list shows it. */
export interface SiteImportRow {
  id: string;
  name: string;
  status: ImportStatus;
  errorStep: string | null;
  errorMessage: string | null;
  attempts: number;
  createdAt: string;
  updatedAt: string;
  finishedAt: string | null;
  projectId: string | null;
  applicationId: string | null;
  databaseId: string | null;
  domainId: string | null;
  databaseType: string | null;
  databaseServiceHost: string | null;
  project: { id: string; name: string } | null;
  application: { id: string; name: string; appName: string } | null;
  database: { id: string; name: string } | null;
  domain: { id: string; host: string } | null;
}

export const SITE_IMPORTS = gql`
  query SiteImports($first: Int!, $offset: Int!) {
    siteImports(first: $first, offset: $offset) {
      totalCount
      edges { node { ${SITE_IMPORT_FIELDS} } }
    }
  }
`;
/** Result of {@link SITE_IMPORTS}. */
export interface SiteImportsData {
  siteImports: { totalCount: number; edges: { node: SiteImportRow }[] };
}

export const SITE_IMPORT_UPDATED = gql`
  subscription SiteImportUpdated {
    siteImportUpdated { importId status siteImport { ${SITE_IMPORT_FIELDS} } }
  }
`;
/** Event of {@link SITE_IMPORT_UPDATED}. */
export interface SiteImportUpdatedData {
  siteImportUpdated: { importId: string; status: ImportStatus; siteImport: SiteImportRow | null };
}

export const IMPORT_PREREQUISITES = gql`
  query ImportPrerequisites($id: ID!) {
    organization(id: $id) {
      id
      gitProviders { id name type }
      sshKeys { id name }
      containerRegistries { id name }
    }
  }
`;
/** Result of {@link IMPORT_PREREQUISITES}. */
export interface ImportPrerequisitesData {
  organization: {
    gitProviders: { id: string; name: string; type: string }[];
    sshKeys: { id: string; name: string }[];
    containerRegistries: { id: string; name: string }[];
  } | null;
}

export const PREVIEW_SITE_IMPORT = gql`
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
`;
/** Result of {@link PREVIEW_SITE_IMPORT}. */
export interface PreviewData {
  previewSiteImport: {
    valid: boolean;
    warnings: string[];
    errors: string[];
    resources: {
      project: { name: string };
      database: { type: string; name: string } | null;
      application: { name: string; sourceType: string; buildType: string | null };
      domain: { host: string } | null;
    };
  };
}

export const IMPORT_SITE = gql`
  mutation ImportSite($input: SiteImportInput!) {
    importSite(input: $input) { importId status errorStep errorMessage siteImport { ${SITE_IMPORT_FIELDS} } }
  }
`;
export const RETRY_SITE_IMPORT = gql`
  mutation RetrySiteImport($id: ID!) {
    retrySiteImport(id: $id) { importId status errorStep errorMessage siteImport { ${SITE_IMPORT_FIELDS} } }
  }
`;
export const DELETE_SITE_IMPORT = gql`
  mutation DeleteSiteImport($id: ID!, $rollbackResources: Boolean!) {
    deleteSiteImport(id: $id, rollbackResources: $rollbackResources) { id rolledBack deletedProjectId }
  }
`;

export const INVITATION_LINK = gql`
  query InvitationLink($token: String!) {
    invitationLink(token: $token) { valid status organizationName email role expiresAt accountExists }
  }
`;
/** Result of {@link INVITATION_LINK}. */
export interface InvitationLinkData {
  invitationLink: {
    valid: boolean;
    status: "pending" | "accepted" | "revoked" | "expired" | null;
    organizationName: string | null;
    email: string | null;
    role: Role | null;
    expiresAt: string | null;
    accountExists: boolean | null;
  };
}
export const ACCEPT_INVITATION = gql`
  mutation AcceptInvitation($token: String!) {
    acceptInvitation(token: $token) { id role organization { id name } }
  }
`;
export const SIGN_UP_WITH_INVITATION = gql`
  mutation SignUpWithInvitation($input: SignUpWithInvitationInput!) {
    signUpWithInvitation(input: $input) { id email }
  }
`;

export const SETTINGS = gql`
  query Settings($id: ID!) {
    organization(id: $id) {
      id
      name
      viewerRole
      apiKeys { id name prefix createdAt lastUsedAt current createdBy { email } }
      members {
        id role createdAt
        user { id email name }
        grants { id createdAt project { id name } application { id name } }
      }
      invitations { id email role status createdAt expiresAt link }
      projects(first: 100) { edges { node { id name } } }
    }
    agentToken { prefix createdAt expiresAt lastUsedAt }
  }
`;
/** A member as the team section shows it. */
export interface MemberRow {
  id: string;
  role: Role;
  createdAt: string;
  user: { id: string; email: string; name: string };
  grants: {
    id: string;
    createdAt: string;
    project: { id: string; name: string } | null;
    application: { id: string; name: string } | null;
  }[];
}
/** Result of {@link SETTINGS}. */
export interface SettingsData {
  organization: {
    id: string;
    name: string;
    viewerRole: Role;
    apiKeys: {
      id: string;
      name: string;
      prefix: string;
      createdAt: string;
      lastUsedAt: string | null;
      current: boolean;
      createdBy: { email: string };
    }[];
    members: MemberRow[];
    invitations: {
      id: string;
      email: string;
      role: Role;
      status: string;
      createdAt: string;
      expiresAt: string;
      link: string | null;
    }[];
    projects: { edges: { node: { id: string; name: string } }[] };
  } | null;
  agentToken: { prefix: string; createdAt: string; expiresAt: string | null; lastUsedAt: string | null } | null;
}

export const CREATE_API_KEY = gql`
  mutation CreateApiKey($name: String!) { createApiKey(name: $name) { secret apiKey { id } } }
`;
export const DELETE_API_KEY = gql`
  mutation DeleteApiKey($id: ID!) { deleteApiKey(id: $id) }
`;
export const CREATE_AGENT_TOKEN = gql`
  mutation CreateAgentToken($input: CreateAgentTokenInput) { createAgentToken(input: $input) { token } }
`;
export const REVOKE_AGENT_TOKEN = gql`
  mutation RevokeAgentToken { revokeAgentToken }
`;
export const INVITE_MEMBER = gql`
  mutation InviteMember($input: InviteMemberInput!) { inviteMember(input: $input) { id } }
`;
export const RESEND_INVITATION = gql`
  mutation ResendInvitation($id: ID!) { resendInvitation(id: $id) { id } }
`;
export const CANCEL_INVITATION = gql`
  mutation CancelInvitation($id: ID!) { cancelInvitation(id: $id) { id } }
`;
export const UPDATE_MEMBER_ROLE = gql`
  mutation UpdateMemberRole($memberId: ID!, $role: Role!) { updateMemberRole(memberId: $memberId, role: $role) { id } }
`;
export const REMOVE_MEMBER = gql`
  mutation RemoveMember($memberId: ID!) { removeMember(memberId: $memberId) }
`;
export const GRANT_ACCESS = gql`
  mutation GrantAccess($input: GrantAccessInput!) { grantAccess(input: $input) { id } }
`;
export const REVOKE_ACCESS = gql`
  mutation RevokeAccess($grantId: ID!) { revokeAccess(grantId: $grantId) }
`;
