/* eslint-disable */
/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends " $fragmentName" | "__typename" ? T[P] : never };
import type { TypedDocumentNode as DocumentNode } from "@graphql-typed-document-node/core";
/** A custom domain to route to an application. */
export type AddDomainInput = {
  /** The application (`app_...`). */
  applicationId: string | number;
  /**
   * Public host name, e.g. `shop.example.com` (lower-cased; unique on the whole platform, else `CONFLICT`): a name
   * under a public suffix of ICANN's Public Suffix List (not `.arpa` or `.onion`), or under `.test` or `.example`. An IP
   * address, `localhost`, a suffix alone (`co.uk`) and names under `.local`, `.internal`, `.lan` or a cluster's own
   * (`api.default`, `x.svc.cluster.local`) answer `BAD_USER_INPUT`: an ingress routes names that public DNS resolves.
   */
  host: string;
  /** Request a certificate (issued asynchronously once DNS points at the ingress). Default true. */
  https?: boolean | null | undefined;
  /**
   * Container port the domain's traffic reaches, 1 to 65535 (80 too when the application listens on another port);
   * omitted: the application's port.
   */
  port?: number | null | undefined;
};

/** Health of an application. */
export type ApplicationHealth =
  /** The last probe succeeded, or the last rollout became available. */
  | "HEALTHY"
  /** Two probes in a row failed, or the last rollout did not become available. */
  | "UNHEALTHY"
  /** Not checked yet (no domain, never deployed, or no probe since). */
  | "UNKNOWN";

/** Who acted: a person (through a credential), the platform itself, or an anonymous caller. */
export type AuditActorKind = "ANONYMOUS" | "SYSTEM" | "USER";

/** The kind of credential an actor used. */
export type AuditCredentialKind = "AGENT_TOKEN" | "API_KEY" | "SESSION";

/**
 * The surface a request reached Skiff through. `CLI`: a GraphQL or REST request marked by the command-line client
 * (`x-skiff-client: cli`); `AUTH`: the sign-in API (`/api/auth/*`); `SYSTEM`: the platform's own work (jobs).
 */
export type AuditSurface =
  /** The agent API (`/api/agent/*`). */
  | "AGENT"
  | "AUTH"
  | "CLI"
  | "GRAPHQL"
  /** The MCP server (`/mcp`). */
  | "MCP"
  /** The internal procedures (`/api/siteImport.*`). */
  | "PROCEDURE"
  | "REST"
  | "SYSTEM";

/** How an image is built from source. */
export type BuildType = "dockerfile" | "nixpacks";

/** Options of a new agent token. */
export type CreateAgentTokenInput = {
  /** Lifetime in days, 1 to 365; null or omitted: the token never expires. */
  expiresInDays?: number | null | undefined;
};

/**
 * Who may call the management mutations below (spec: Role table): owners and admins manage applications, their
 * variables and domains, databases and environments. A member — limited by grants or not — may view and deploy
 * (`deployApplication`) only: on an application, database or environment it sees these mutations answer
 * `FORBIDDEN`, and on one that is not granted to it `NOT_FOUND` (as for another organization's). An API key acts with
 * its creator's role; no credentials answer `UNAUTHENTICATED`. Invalid input answers `BAD_USER_INPUT` with
 * `extensions.fieldErrors` (a dot-separated path of the input → messages); a plan quota answers `FORBIDDEN` with a
 * message naming the quota (e.g. `Plan quota reached: applications (5 of 5 on plan "free")`, `extensions.quota`).
 */
export type CreateApplicationInput = {
  /** Environment (`env_...`) the application is created in. */
  environmentId: string | number;
  /**
   * Display name, 1 to 100 characters, unique in the environment (`CONFLICT` otherwise); the platform-wide `appName`
   * slug is made from it (`app-` first when the name does not start with a letter, e.g. `1shop` → `app-1shop-7k2mq3`:
   * the slug names Kubernetes Services, which must).
   */
  name: string;
  /** Container port, 1 to 65535. Default 80. */
  port?: number | null | undefined;
  /** Where the application comes from: the same rules as a site import's `source`. */
  source: SiteImportSourceInput;
};

/** A database to create in an environment. */
export type CreateDatabaseInput = {
  /**
   * Applications of the same environment that get the database's automatic variables (spec: "Automatic environment
   * variables": `DB_HOST`, `DB_DATABASE`, `DB_USERNAME`, `DB_PASSWORD`, and `DB_PORT`, `DB_CONNECTION`,
   * `DATABASE_URL` or `MONGO_URL` by engine); a variable of the same name is replaced. At most 50. They count towards
   * an application's 200 variables and 1,000,000 bytes of variables: an application they would take past either is
   * refused (`fieldErrors["applicationIds.<i>"]`), and nothing is created.
   */
  applicationIds?: Array<string | number> | null | undefined;
  /** Environment (`env_...`) the database is created in. */
  environmentId: string | number;
  /**
   * Database name: 1 to 63 characters, letters, digits, `_` and `-`, not starting with `-`; unique in the environment
   * (`CONFLICT` otherwise).
   */
  name: string;
  /**
   * Password, 1 to 256 characters; omitted: 32 random letters and digits are generated (answered once as
   * `generatedPassword`). Stored encrypted and never readable afterwards: it reaches applications as `DB_PASSWORD` (and inside `DATABASE_URL` / `MONGO_URL`).
   */
  password?: string | null | undefined;
  /** Database engine. */
  type: DatabaseType;
  /**
   * Database user: 1 to 63 characters, starting with a letter or `_`; letters, digits, `_`, `.`, `-`. Not `root` (in
   * any case) for mysql and mariadb: their images create `root` themselves and refuse it as the user.
   */
  user: string;
};

/** Input of `createOrganization`. */
export type CreateOrganizationInput = {
  /** Display name, 1 to 100 characters. */
  name: string;
  /**
   * URL-safe unique short name: 3 to 48 of `a-z`, `0-9` and `-`, starting and ending with a letter or digit.
   * Omitted: derived from the name plus a random suffix.
   */
  slug?: string | null | undefined;
};

/** Input of `createWebhook`. */
export type CreateWebhookInput = {
  description?: string | null | undefined;
  /** At least one event name of the catalogue. */
  events: Array<string>;
  /** Default true. */
  isActive?: boolean | null | undefined;
  /** Public `https://` URL, at most 2048 characters; its host must pass the outbound address check. */
  url: string;
};

/** Database engines. */
export type DatabaseType = "mariadb" | "mongodb" | "mysql" | "postgres";

/** Changes to deploy settings; omitted fields stay as they are. */
export type DeploySettingsInput = {
  autoDeploy?: boolean | null | undefined;
  /** Empty string or null resets to the source branch. */
  branchFilter?: string | null | undefined;
  /** Path of the health probe: starts with `/`, at most 2048 characters (`BAD_USER_INPUT` otherwise). */
  healthPath?: string | null | undefined;
  requireSignature?: boolean | null | undefined;
  /** At most 50 globs of at most 200 characters. */
  watchPaths?: Array<string> | null | undefined;
};

/** DNS state of a docs hostname as the docs host last checked it. */
export type DocsDnsState =
  /** The hostname has a CNAME to `cnameTarget`. */
  | "OK"
  /** Not checked yet (not synchronised since it was saved). */
  | "PENDING"
  /** No CNAME, or a CNAME to another name. */
  | "WRONG_TARGET";

/** Input of `setDocsTheme`: the whole theme (omitted optional fields are cleared). */
export type DocsThemeInput = {
  colorsDark: Record<string, unknown>;
  colorsLight: Record<string, unknown>;
  customCss?: string | null | undefined;
  /** Null or omitted clears the hostname (the registration goes at the next synchronisation). */
  docsHostname?: string | null | undefined;
  faviconUrl?: string | null | undefined;
  footerText?: string | null | undefined;
  logoUrl: string;
  siteName: string;
};

/** Kind of a git provider. */
export type GitProviderType = "github" | "gitlab";

/** Input of `grantAccess`: exactly one of `projectId` and `applicationId`. */
export type GrantAccessInput = {
  applicationId?: string | number | null | undefined;
  /** A member whose role is `member`. */
  memberId: string | number;
  projectId?: string | number | null | undefined;
};

/**
 * Status of an invitation (spec: Invitation states). `pending` until accepted, cancelled (`revoked`) or 48 hours
 * old (`expired`); only a `pending` invitation's link works.
 */
export type InvitationStatus = "accepted" | "expired" | "pending" | "revoked";

/** Input of `inviteMember`. */
export type InviteMemberInput = {
  email: string;
  /** Inviting organization; omitted: the organization the request acts on. */
  organizationId?: string | number | null | undefined;
  /** `admin` or `member` (the owner role passes only by `transferOwnership`). */
  role: Role;
};

/** Provisioning state of the organization's merchant at the payment gateway (spec: Payment gateway service). */
export type PaymentMerchantStatus =
  /** Active at the gateway: checkout and events work. */
  | "ACTIVE"
  /** Just created: the merchant code reads as a placeholder until the gateway activates it (a job polls). */
  | "PROVISIONING";

/** Outcome of relaying one payment event to one webhook URL. */
export type PaymentRelayOutcome =
  /** The webhook URL answered 2xx within 10 seconds. */
  | "DELIVERED"
  /** Non-2xx answer, timeout (10 s) or connection error: the event is lost for that URL (no retry, no queue). */
  | "FAILED"
  /** The URL is loopback, private, link-local, `*.internal`, `*.local` or cluster-internal: nothing was sent. */
  | "REFUSED";

/**
 * Role of a member inside an organization.
 * `owner`: everything including billing and team, cannot be removed;
 * `admin`: projects, applications, databases and team, not billing;
 * `member`: view and deploy applications; cannot create or delete projects or manage the team.
 * Values are the spec's lower-case words.
 */
export type Role = "admin" | "member" | "owner";

/** Input of `signUpWithInvitation`. */
export type SignUpWithInvitationInput = {
  /** Display name, 1 to 100 characters. */
  name: string;
  /** At least 8 characters (at most 128). */
  password: string;
  /** The token of the invitation link. */
  token: string;
};

/** Database to create with the imported site. All fields are required when `database` is given. */
export type SiteImportDatabaseInput = {
  /** Database name: 1 to 63 characters, letters, digits, `_` and `-`, not starting with `-`. */
  name: string;
  /** Database password, 1 to 256 characters. Stored encrypted; never returned (masked as `********`). */
  password: string;
  /** Database engine: mariadb, mysql, postgres or mongodb. */
  type: DatabaseType;
  /**
   * Database user: 1 to 63 characters, starting with a letter or `_`; letters, digits, `_`, `.`, `-`. Not `root` (in
   * any case) for mysql and mariadb: their images create `root` themselves and refuse it as the user.
   */
  user: string;
};

/**
 * An import request (spec: Import request). Strings are trimmed. Prerequisites outside the request: for github
 * and gitlab sources a git provider of that kind in the organization; for every import a container registry of
 * the organization (`createContainerRegistry`) or the platform default (`SKIFF_DEFAULT_REGISTRY_URL`).
 */
export type SiteImportInput = {
  /** Database to create; its connection settings become environment variables of the application. */
  database?: SiteImportDatabaseInput | null | undefined;
  /**
   * Custom domain host, e.g. `shop.example.com` (lower-cased; unique platform-wide; a public host name, as
   * `AddDomainInput.host` says). HTTPS is requested.
   */
  domain?: string | null | undefined;
  /**
   * Environment variables: names match `[A-Za-z_][A-Za-z0-9_]*` (at most 253 characters, the limit of a Kubernetes
   * Secret key), values are strings (at most 32768 characters). Merged after the variables generated for the
   * database, which they override; together at most 200 variables and 1,000,000 bytes of names and values in UTF-8
   * (one Kubernetes Secret holds at most 1 MiB; over either: BAD_USER_INPUT naming `envVars`).
   */
  envVars?: Record<string, unknown> | null | undefined;
  /**
   * Project and application name, 1 to 100 characters, one line without invisible characters, stored in Unicode
   * normalization form C; project names are unique per organization.
   */
  name: string;
  /** Target organization (`org_...`); the caller must be its owner or admin. */
  organizationId: string | number;
  /** Container port, 1 to 65535. Default 80. */
  port?: number | null | undefined;
  /** Where the application comes from. */
  source: SiteImportSourceInput;
};

/**
 * Where the application comes from. Required per type: github — `repo`, `githubId`; gitlab — `repo`, `gitlabId`;
 * docker — `dockerImage`; git — `customGitUrl`. A field of another type is rejected (`BAD_USER_INPUT`).
 */
export type SiteImportSourceInput = {
  /** Branch to build (github, gitlab, git). Default `main`. */
  branch?: string | null | undefined;
  /** Build context: an absolute path inside the repository (github, gitlab, git). Default `/`. */
  buildPath?: string | null | undefined;
  /** Default `dockerfile`. */
  buildType?: BuildType | null | undefined;
  /** Id (`ssh_...`) of an SSH key stored in the organization, for private repositories (git). */
  customGitSSHKeyId?: string | number | null | undefined;
  /** HTTPS (`https://host/path`) or SSH (`git@host:path`, `ssh://...`) clone URL (git). */
  customGitUrl?: string | null | undefined;
  /**
   * Image to deploy, e.g. `nginx:1.27` or `ghcr.io/acme/shop:1.2@sha256:…` (docker); no build step. A reference as
   * registries define it: lower-case repository path, a tag of at most 128 characters, a `sha256` digest.
   */
  dockerImage?: string | null | undefined;
  /** Id (`gitp_...`) of a GitHub provider configured in the organization (github). */
  githubId?: string | number | null | undefined;
  /** Id (`gitp_...`) of a GitLab provider configured in the organization (gitlab). */
  gitlabId?: string | number | null | undefined;
  /**
   * Repository as `owner/name` (github, gitlab; GitLab subgroups `group/sub/name` allowed): letters, digits, `_`, `.`
   * and `-` per segment, no segment `.` or `..`.
   */
  repo?: string | null | undefined;
  /** github, gitlab, docker or git. */
  type: SourceType;
};

/**
 * Status of a site import (spec: Import status).
 * `pending`: running (resources are being created in order); `success`: every resource exists and a deployment
 * was queued (building and deploying continue asynchronously and can still fail); `partial`: the run failed after
 * some resources were created (they remain until retry or rollback); `failed`: the run failed before anything
 * was created.
 */
export type SiteImportStatus = "failed" | "partial" | "pending" | "success";

/** The step a site import failed at, in execution order. */
export type SiteImportStep =
  /** Creating the application and its environment variables (git provider, SSH key, container registry, applications quota). */
  | "application_creation"
  /** Creating the database service (databases quota). */
  | "database_creation"
  /** Queueing the deployment. */
  | "deployment"
  /** Routing the custom domain (host already in use, domains quota). */
  | "domain_creation"
  /** Creating the project and its `production` environment (name conflicts, projects quota). */
  | "project_creation";

/**
 * What a `siteImportUpdated` event reports: a status of the record (`SiteImportStatus`), or `deleted` when the
 * record was deleted (`siteImport` is then null).
 */
export type SiteImportUpdateStatus = "deleted" | "failed" | "partial" | "pending" | "success";

/** Where an application's code or image comes from. */
export type SourceType = "docker" | "git" | "github" | "gitlab";

/**
 * Changes to an application; omitted (or null) fields stay as they are. `source` replaces the whole source (the same
 * rules as a site import's); `branch`, `buildPath`, `buildType` and `dockerImage` change one field of the current
 * source (then checked with the same rules, errors under their own name: a field the source's type does not use, e.g.
 * `branch` or `buildPath` of a docker application, answers `BAD_USER_INPUT` and changes nothing).
 */
export type UpdateApplicationInput = {
  /** Branch to build (github, gitlab, git). */
  branch?: string | null | undefined;
  /** Build context: an absolute path inside the repository (github, gitlab, git). */
  buildPath?: string | null | undefined;
  /** dockerfile or nixpacks. */
  buildType?: BuildType | null | undefined;
  /**
   * Image to deploy (docker): a reference such as `nginx:1.27` or `ghcr.io/org/app:1.2@sha256:<64 hex digits>` —
   * optional registry host and port, lowercase repository path, tag of at most 128 characters.
   */
  dockerImage?: string | null | undefined;
  /** Path the health probe requests: starts with `/`, at most 2048 characters, no spaces or `#`. */
  healthPath?: string | null | undefined;
  /** Display name, 1 to 100 characters, unique in the environment (`CONFLICT` otherwise; the `appName` slug does not change). */
  name?: string | null | undefined;
  /** Container port, 1 to 65535. */
  port?: number | null | undefined;
  /**
   * A new source, replacing the current one. Not with `branch`, `buildPath`, `buildType` or `dockerImage`, which
   * change one field of the current source (`BAD_USER_INPUT` naming them: set them inside `source` instead).
   */
  source?: SiteImportSourceInput | null | undefined;
};

/** Changes to a domain; omitted fields stay as they are. */
export type UpdateDomainInput = {
  /** A new host name (same rules as `addDomain`). */
  host?: string | null | undefined;
  /** Request a certificate. */
  https?: boolean | null | undefined;
  /** Container port, 1 to 65535. */
  port?: number | null | undefined;
  /** Use the application's port (clears `port`). */
  useApplicationPort?: boolean | null | undefined;
};

/** Input of `updateWebhook`: omitted fields keep their value. */
export type UpdateWebhookInput = {
  description?: string | null | undefined;
  events?: Array<string> | null | undefined;
  isActive?: boolean | null | undefined;
  url?: string | null | undefined;
};

export type LeaveOrganizationMutationVariables = Exact<{
  organizationId: string | number;
}>;

export type LeaveOrganizationMutation = { leaveOrganization: string };

export type AuditEventsQueryVariables = Exact<{
  action?: string | null | undefined;
  actor?: string | number | null | undefined;
  target?: string | number | null | undefined;
  since?: string | null | undefined;
  until?: string | null | undefined;
  after?: string | null | undefined;
}>;

export type AuditEventsQuery = {
  auditEvents: {
    totalCount: number;
    pageInfo: { hasNextPage: boolean; endCursor: string | null };
    nodes: Array<{
      id: string;
      occurredAt: string;
      actorKind: AuditActorKind;
      actorUserId: string | null;
      credentialKind: AuditCredentialKind | null;
      credentialId: string | null;
      surface: AuditSurface;
      action: string;
      targetIds: Array<string>;
      outcome: string;
      clientAddress: string | null;
      requestId: string | null;
    }>;
  };
};

export type InvitationLinkQueryVariables = Exact<{
  token: string;
}>;

export type InvitationLinkQuery = {
  invitationLink: {
    valid: boolean;
    status: InvitationStatus | null;
    organizationName: string | null;
    email: string | null;
    role: Role | null;
    expiresAt: string | null;
    accountExists: boolean | null;
  };
};

export type AcceptInvitationMutationVariables = Exact<{
  token: string;
}>;

export type AcceptInvitationMutation = {
  acceptInvitation: { id: string; role: Role; organization: { id: string; name: string } };
};

export type SignUpWithInvitationMutationVariables = Exact<{
  input: SignUpWithInvitationInput;
}>;

export type SignUpWithInvitationMutation = { signUpWithInvitation: { id: string; email: string } };

export type ApplicationManageFieldsFragment = {
  id: string;
  name: string;
  needsDeployment: boolean;
  sourceType: SourceType | null;
  buildType: BuildType | null;
  port: number;
  source: {
    type: SourceType | null;
    repo: string | null;
    branch: string | null;
    buildPath: string | null;
    dockerImage: string | null;
    customGitUrl: string | null;
  };
  deploySettings: { healthPath: string };
  domains: Array<{ id: string; host: string; port: number | null; https: boolean | null; createdAt: string }>;
  environmentVariables: Array<{ key: string; value: string }>;
};

export type ApplicationManageQueryVariables = Exact<{
  id: string | number;
}>;

export type ApplicationManageQuery = {
  application: {
    id: string;
    name: string;
    needsDeployment: boolean;
    sourceType: SourceType | null;
    buildType: BuildType | null;
    port: number;
    source: {
      type: SourceType | null;
      repo: string | null;
      branch: string | null;
      buildPath: string | null;
      dockerImage: string | null;
      customGitUrl: string | null;
    };
    deploySettings: { healthPath: string };
    domains: Array<{ id: string; host: string; port: number | null; https: boolean | null; createdAt: string }>;
    environmentVariables: Array<{ key: string; value: string }>;
  } | null;
};

export type SetEnvironmentVariableMutationVariables = Exact<{
  applicationId: string | number;
  key: string;
  value: string;
}>;

export type SetEnvironmentVariableMutation = {
  setEnvironmentVariable: {
    id: string;
    name: string;
    needsDeployment: boolean;
    sourceType: SourceType | null;
    buildType: BuildType | null;
    port: number;
    source: {
      type: SourceType | null;
      repo: string | null;
      branch: string | null;
      buildPath: string | null;
      dockerImage: string | null;
      customGitUrl: string | null;
    };
    deploySettings: { healthPath: string };
    domains: Array<{ id: string; host: string; port: number | null; https: boolean | null; createdAt: string }>;
    environmentVariables: Array<{ key: string; value: string }>;
  };
};

export type PasteEnvironmentVariablesMutationVariables = Exact<{
  applicationId: string | number;
  dotenv: string;
}>;

export type PasteEnvironmentVariablesMutation = {
  setEnvironmentVariables: {
    setKeys: Array<string>;
    application: {
      id: string;
      name: string;
      needsDeployment: boolean;
      sourceType: SourceType | null;
      buildType: BuildType | null;
      port: number;
      source: {
        type: SourceType | null;
        repo: string | null;
        branch: string | null;
        buildPath: string | null;
        dockerImage: string | null;
        customGitUrl: string | null;
      };
      deploySettings: { healthPath: string };
      domains: Array<{ id: string; host: string; port: number | null; https: boolean | null; createdAt: string }>;
      environmentVariables: Array<{ key: string; value: string }>;
    };
  };
};

export type UnsetEnvironmentVariableMutationVariables = Exact<{
  applicationId: string | number;
  key: string;
}>;

export type UnsetEnvironmentVariableMutation = {
  unsetEnvironmentVariable: {
    id: string;
    name: string;
    needsDeployment: boolean;
    sourceType: SourceType | null;
    buildType: BuildType | null;
    port: number;
    source: {
      type: SourceType | null;
      repo: string | null;
      branch: string | null;
      buildPath: string | null;
      dockerImage: string | null;
      customGitUrl: string | null;
    };
    deploySettings: { healthPath: string };
    domains: Array<{ id: string; host: string; port: number | null; https: boolean | null; createdAt: string }>;
    environmentVariables: Array<{ key: string; value: string }>;
  };
};

export type AddDomainMutationVariables = Exact<{
  input: AddDomainInput;
}>;

export type AddDomainMutation = {
  addDomain: {
    id: string;
    application: {
      id: string;
      name: string;
      needsDeployment: boolean;
      sourceType: SourceType | null;
      buildType: BuildType | null;
      port: number;
      source: {
        type: SourceType | null;
        repo: string | null;
        branch: string | null;
        buildPath: string | null;
        dockerImage: string | null;
        customGitUrl: string | null;
      };
      deploySettings: { healthPath: string };
      domains: Array<{ id: string; host: string; port: number | null; https: boolean | null; createdAt: string }>;
      environmentVariables: Array<{ key: string; value: string }>;
    };
  };
};

export type RemoveDomainMutationVariables = Exact<{
  applicationId: string | number;
  host: string;
}>;

export type RemoveDomainMutation = {
  removeDomain: {
    id: string;
    name: string;
    needsDeployment: boolean;
    sourceType: SourceType | null;
    buildType: BuildType | null;
    port: number;
    source: {
      type: SourceType | null;
      repo: string | null;
      branch: string | null;
      buildPath: string | null;
      dockerImage: string | null;
      customGitUrl: string | null;
    };
    deploySettings: { healthPath: string };
    domains: Array<{ id: string; host: string; port: number | null; https: boolean | null; createdAt: string }>;
    environmentVariables: Array<{ key: string; value: string }>;
  };
};

export type UpdateApplicationMutationVariables = Exact<{
  id: string | number;
  input: UpdateApplicationInput;
}>;

export type UpdateApplicationMutation = {
  updateApplication: {
    id: string;
    name: string;
    needsDeployment: boolean;
    sourceType: SourceType | null;
    buildType: BuildType | null;
    port: number;
    source: {
      type: SourceType | null;
      repo: string | null;
      branch: string | null;
      buildPath: string | null;
      dockerImage: string | null;
      customGitUrl: string | null;
    };
    deploySettings: { healthPath: string };
    domains: Array<{ id: string; host: string; port: number | null; https: boolean | null; createdAt: string }>;
    environmentVariables: Array<{ key: string; value: string }>;
  };
};

export type UpdateDomainMutationVariables = Exact<{
  id: string | number;
  input: UpdateDomainInput;
}>;

export type UpdateDomainMutation = {
  updateDomain: {
    id: string;
    port: number | null;
    https: boolean | null;
    application: {
      id: string;
      name: string;
      needsDeployment: boolean;
      sourceType: SourceType | null;
      buildType: BuildType | null;
      port: number;
      source: {
        type: SourceType | null;
        repo: string | null;
        branch: string | null;
        buildPath: string | null;
        dockerImage: string | null;
        customGitUrl: string | null;
      };
      deploySettings: { healthPath: string };
      domains: Array<{ id: string; host: string; port: number | null; https: boolean | null; createdAt: string }>;
      environmentVariables: Array<{ key: string; value: string }>;
    };
  };
};

export type ApplicationTreeQueryVariables = Exact<{
  organizationId: string | number;
}>;

export type ApplicationTreeQuery = {
  organization: {
    id: string;
    name: string;
    viewerRole: Role;
    projects: {
      totalCount: number;
      edges: Array<{
        node: {
          id: string;
          name: string;
          environments: Array<{
            id: string;
            name: string;
            applications: Array<{
              id: string;
              name: string;
              appName: string;
              applicationStatus: string | null;
              sourceType: SourceType | null;
            }>;
          }>;
        };
      }>;
    };
  } | null;
};

export type DeploySettingsFieldsFragment = {
  autoDeploy: boolean;
  branchFilter: string | null;
  watchPaths: Array<string>;
  requireSignature: boolean;
  hasWebhookSecret: boolean;
  healthPath: string;
};

export type ApplicationDeploySettingsQueryVariables = Exact<{
  id: string | number;
}>;

export type ApplicationDeploySettingsQuery = {
  application: {
    id: string;
    name: string;
    appName: string;
    sourceType: SourceType | null;
    deployWebhookUrl: string | null;
    source: { branch: string | null; repo: string | null; dockerImage: string | null };
    project: { id: string; name: string };
    environment: { id: string; name: string };
    deploySettings: {
      autoDeploy: boolean;
      branchFilter: string | null;
      watchPaths: Array<string>;
      requireSignature: boolean;
      hasWebhookSecret: boolean;
      healthPath: string;
    };
  } | null;
};

export type RegenerateDeployTokenMutationVariables = Exact<{
  applicationId: string | number;
}>;

export type RegenerateDeployTokenMutation = { regenerateDeployToken: string };

export type RegenerateDeployWebhookSecretMutationVariables = Exact<{
  applicationId: string | number;
}>;

export type RegenerateDeployWebhookSecretMutation = { regenerateDeployWebhookSecret: string };

export type UpdateDeploySettingsMutationVariables = Exact<{
  applicationId: string | number;
  input: DeploySettingsInput;
}>;

export type UpdateDeploySettingsMutation = {
  updateDeploySettings: {
    autoDeploy: boolean;
    branchFilter: string | null;
    watchPaths: Array<string>;
    requireSignature: boolean;
    hasWebhookSecret: boolean;
    healthPath: string;
  };
};

export type DeploymentRowFragment = {
  id: string;
  status: string | null;
  title: string;
  description: string | null;
  trigger: string;
  commitSha: string | null;
  errorMessage: string | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
};

export type ApplicationDeploymentsQueryVariables = Exact<{
  id: string | number;
  organizationId: string | number;
}>;

export type ApplicationDeploymentsQuery = {
  organization: { id: string; viewerRole: Role } | null;
  application: {
    id: string;
    name: string;
    appName: string;
    applicationStatus: string | null;
    health: ApplicationHealth;
    healthCheckedAt: string | null;
    sourceType: SourceType | null;
    source: { branch: string | null; repo: string | null; dockerImage: string | null };
    project: { id: string; name: string };
    environment: { id: string; name: string };
    domains: Array<{ id: string; host: string; https: boolean | null }>;
    deployments: Array<{
      id: string;
      status: string | null;
      title: string;
      description: string | null;
      trigger: string;
      commitSha: string | null;
      errorMessage: string | null;
      createdAt: string;
      startedAt: string | null;
      finishedAt: string | null;
    }>;
  } | null;
};

export type DeploymentLogsQueryVariables = Exact<{
  id: string | number;
  first: number;
}>;

export type DeploymentLogsQuery = {
  application: {
    id: string;
    deployments: Array<{ id: string; logs: Array<{ at: string; level: string; text: string }> }>;
  } | null;
};

export type DeploymentUpdatedSubscriptionVariables = Exact<{
  applicationId: string | number;
  after?: string | null | undefined;
}>;

export type DeploymentUpdatedSubscription = {
  deploymentUpdated: {
    deploymentId: string;
    status: string;
    cursor: string;
    logLine: { at: string; level: string; text: string } | null;
    deployment: {
      id: string;
      status: string | null;
      title: string;
      description: string | null;
      trigger: string;
      commitSha: string | null;
      errorMessage: string | null;
      createdAt: string;
      startedAt: string | null;
      finishedAt: string | null;
    };
  };
};

export type DeployApplicationMutationVariables = Exact<{
  applicationId: string | number;
  title?: string | null | undefined;
}>;

export type DeployApplicationMutation = {
  deployApplication: {
    id: string;
    status: string | null;
    title: string;
    description: string | null;
    trigger: string;
    commitSha: string | null;
    errorMessage: string | null;
    createdAt: string;
    startedAt: string | null;
    finishedAt: string | null;
  };
};

export type CancelDeploymentMutationVariables = Exact<{
  id: string | number;
}>;

export type CancelDeploymentMutation = {
  cancelDeployment: {
    id: string;
    status: string | null;
    title: string;
    description: string | null;
    trigger: string;
    commitSha: string | null;
    errorMessage: string | null;
    createdAt: string;
    startedAt: string | null;
    finishedAt: string | null;
  };
};

export type RedeployDeploymentMutationVariables = Exact<{
  id: string | number;
}>;

export type RedeployDeploymentMutation = {
  redeployDeployment: {
    id: string;
    status: string | null;
    title: string;
    description: string | null;
    trigger: string;
    commitSha: string | null;
    errorMessage: string | null;
    createdAt: string;
    startedAt: string | null;
    finishedAt: string | null;
  };
};

export type ApplicationOrganizationQueryVariables = Exact<{
  id: string | number;
}>;

export type ApplicationOrganizationQuery = {
  application: { id: string; project: { id: string; organization: { id: string; name: string } } } | null;
};

export type DocsThemeFieldsFragment = {
  siteName: string;
  logoUrl: string;
  faviconUrl: string | null;
  colorsLight: Record<string, unknown>;
  colorsDark: Record<string, unknown>;
  footerText: string;
  customCss: string | null;
  docsHostname: string | null;
  themeUrl: string;
  loaderSnippet: string;
  updatedAt: string;
  docsRegistration: {
    hostname: string;
    syncedAt: string | null;
    dns: DocsDnsState;
    cnameTarget: string;
    conflict: boolean;
  } | null;
};

export type DocsThemeQueryVariables = Exact<{
  organizationId: string | number;
}>;

export type DocsThemeQuery = {
  docsTheme: {
    siteName: string;
    logoUrl: string;
    faviconUrl: string | null;
    colorsLight: Record<string, unknown>;
    colorsDark: Record<string, unknown>;
    footerText: string;
    customCss: string | null;
    docsHostname: string | null;
    themeUrl: string;
    loaderSnippet: string;
    updatedAt: string;
    docsRegistration: {
      hostname: string;
      syncedAt: string | null;
      dns: DocsDnsState;
      cnameTarget: string;
      conflict: boolean;
    } | null;
  } | null;
};

export type SetDocsThemeMutationVariables = Exact<{
  organizationId: string | number;
  input: DocsThemeInput;
}>;

export type SetDocsThemeMutation = {
  setDocsTheme: {
    siteName: string;
    logoUrl: string;
    faviconUrl: string | null;
    colorsLight: Record<string, unknown>;
    colorsDark: Record<string, unknown>;
    footerText: string;
    customCss: string | null;
    docsHostname: string | null;
    themeUrl: string;
    loaderSnippet: string;
    updatedAt: string;
    docsRegistration: {
      hostname: string;
      syncedAt: string | null;
      dns: DocsDnsState;
      cnameTarget: string;
      conflict: boolean;
    } | null;
  };
};

export type PaymentServiceRowFragment = {
  id: string;
  name: string;
  webhookUrl: string | null;
  createdAt: string;
  merchantCode: string;
  merchantStatus: PaymentMerchantStatus;
  checkoutUrl: string | null;
  paymentMethods: Array<{ id: string; label: string; kind: string; enabled: boolean }>;
};

export type PaymentRelayRowFragment = {
  id: string;
  eventType: string;
  knownEvent: boolean;
  externalReference: string | null;
  targetUrl: string;
  outcome: PaymentRelayOutcome;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  createdAt: string;
};

export type ProjectPaymentsQueryVariables = Exact<{
  projectId: string | number;
}>;

export type ProjectPaymentsQuery = {
  project: {
    id: string;
    name: string;
    paymentGatewayServices: Array<{
      id: string;
      name: string;
      webhookUrl: string | null;
      createdAt: string;
      merchantCode: string;
      merchantStatus: PaymentMerchantStatus;
      checkoutUrl: string | null;
      paymentMethods: Array<{ id: string; label: string; kind: string; enabled: boolean }>;
    }>;
  } | null;
};

export type PaymentRelaysQueryVariables = Exact<{
  projectId: string | number;
  first: number;
}>;

export type PaymentRelaysQuery = {
  project: {
    id: string;
    paymentGatewayServices: Array<{
      id: string;
      relays: Array<{
        id: string;
        eventType: string;
        knownEvent: boolean;
        externalReference: string | null;
        targetUrl: string;
        outcome: PaymentRelayOutcome;
        statusCode: number | null;
        error: string | null;
        durationMs: number;
        createdAt: string;
      }>;
    }>;
  } | null;
};

export type PaymentSigningKeysQueryVariables = Exact<{
  projectId: string | number;
}>;

export type PaymentSigningKeysQuery = {
  project: { id: string; paymentGatewayServices: Array<{ id: string; signingKey: string | null }> } | null;
};

export type CreatePaymentServiceMutationVariables = Exact<{
  projectId: string | number;
  name: string;
  webhookUrl?: string | null | undefined;
}>;

export type CreatePaymentServiceMutation = {
  createPaymentGatewayService: {
    id: string;
    name: string;
    webhookUrl: string | null;
    createdAt: string;
    merchantCode: string;
    merchantStatus: PaymentMerchantStatus;
    checkoutUrl: string | null;
    paymentMethods: Array<{ id: string; label: string; kind: string; enabled: boolean }>;
  };
};

export type UpdatePaymentServiceMutationVariables = Exact<{
  id: string | number;
  name?: string | null | undefined;
  webhookUrl?: string | null | undefined;
}>;

export type UpdatePaymentServiceMutation = {
  updatePaymentGatewayService: {
    id: string;
    name: string;
    webhookUrl: string | null;
    createdAt: string;
    merchantCode: string;
    merchantStatus: PaymentMerchantStatus;
    checkoutUrl: string | null;
    paymentMethods: Array<{ id: string; label: string; kind: string; enabled: boolean }>;
  };
};

export type DeletePaymentServiceMutationVariables = Exact<{
  id: string | number;
}>;

export type DeletePaymentServiceMutation = { deletePaymentGatewayService: boolean };

export type SetPaymentMethodMutationVariables = Exact<{
  serviceId: string | number;
  method: string;
  enabled: boolean;
}>;

export type SetPaymentMethodMutation = {
  setPaymentMethodEnabled: { id: string; label: string; kind: string; enabled: boolean };
};

export type PlanUsageQueryVariables = Exact<{
  id: string | number;
}>;

export type PlanUsageQuery = {
  organization: {
    id: string;
    name: string;
    viewerRole: Role;
    plan: {
      name: string;
      features: Array<string>;
      quotas: {
        projects: number | null;
        applications: number | null;
        databases: number | null;
        domains: number | null;
      };
      usage: { projects: number; applications: number; databases: number; domains: number };
    };
  } | null;
};

export type ProjectTreeQueryVariables = Exact<{
  after?: string | null | undefined;
}>;

export type ProjectTreeQuery = {
  projects: {
    totalCount: number;
    pageInfo: { hasNextPage: boolean; endCursor: string | null };
    edges: Array<{
      node: {
        id: string;
        name: string;
        description: string | null;
        createdAt: string;
        environments: Array<{
          id: string;
          name: string;
          applications: Array<{
            id: string;
            name: string;
            appName: string;
            applicationStatus: string | null;
            health: ApplicationHealth;
            healthCheckedAt: string | null;
            domains: Array<{ id: string; host: string; https: boolean | null }>;
            deployments: Array<{
              id: string;
              status: string | null;
              title: string;
              createdAt: string;
              finishedAt: string | null;
            }>;
          }>;
          databases: Array<{
            id: string;
            name: string;
            type: DatabaseType;
            user: string;
            serviceHost: string;
            createdAt: string;
          }>;
        }>;
      };
    }>;
  };
};

export type CreateEnvironmentMutationVariables = Exact<{
  projectId: string | number;
  name: string;
}>;

export type CreateEnvironmentMutation = { createEnvironment: { id: string; name: string } };

export type DeleteEnvironmentMutationVariables = Exact<{
  id: string | number;
}>;

export type DeleteEnvironmentMutation = { deleteEnvironment: string };

export type CreateApplicationMutationVariables = Exact<{
  input: CreateApplicationInput;
}>;

export type CreateApplicationMutation = { createApplication: { id: string; name: string } };

export type DeleteApplicationMutationVariables = Exact<{
  id: string | number;
}>;

export type DeleteApplicationMutation = { deleteApplication: string };

export type RenameEnvironmentMutationVariables = Exact<{
  id: string | number;
  name: string;
}>;

export type RenameEnvironmentMutation = { renameEnvironment: { id: string; name: string } };

export type CreateDatabaseMutationVariables = Exact<{
  input: CreateDatabaseInput;
}>;

export type CreateDatabaseMutation = {
  createDatabase: {
    generatedPassword: string | null;
    database: { id: string; name: string };
    applications: Array<{ id: string }>;
  };
};

export type RotateDatabasePasswordMutationVariables = Exact<{
  id: string | number;
}>;

export type RotateDatabasePasswordMutation = {
  rotateDatabasePassword: {
    generatedPassword: string | null;
    database: { id: string };
    applications: Array<{ id: string; name: string }>;
  };
};

export type DeleteDatabaseMutationVariables = Exact<{
  id: string | number;
}>;

export type DeleteDatabaseMutation = {
  deleteDatabase: { id: string; affectedApplications: Array<{ id: string; name: string }> };
};

export type MemberRowFragment = {
  id: string;
  role: Role;
  createdAt: string;
  user: { id: string; email: string; name: string };
  grants: Array<{
    id: string;
    createdAt: string;
    project: { id: string; name: string } | null;
    application: { id: string; name: string } | null;
  }>;
};

export type SettingsQueryVariables = Exact<{
  id: string | number;
}>;

export type SettingsQuery = {
  organization: {
    id: string;
    name: string;
    viewerRole: Role;
    apiKeys: Array<{
      id: string;
      name: string;
      prefix: string;
      createdAt: string;
      lastUsedAt: string | null;
      current: boolean;
      createdBy: { email: string };
    }>;
    members: Array<{
      id: string;
      role: Role;
      createdAt: string;
      user: { id: string; email: string; name: string };
      grants: Array<{
        id: string;
        createdAt: string;
        project: { id: string; name: string } | null;
        application: { id: string; name: string } | null;
      }>;
    }>;
    invitations: Array<{
      id: string;
      email: string;
      role: Role;
      status: InvitationStatus;
      createdAt: string;
      expiresAt: string;
      link: string | null;
    }>;
    projects: { edges: Array<{ node: { id: string; name: string } }> };
  } | null;
  agentToken: { prefix: string; createdAt: string; expiresAt: string | null; lastUsedAt: string | null } | null;
};

export type CreateApiKeyMutationVariables = Exact<{
  name: string;
}>;

export type CreateApiKeyMutation = { createApiKey: { secret: string; apiKey: { id: string } } };

export type DeleteApiKeyMutationVariables = Exact<{
  id: string | number;
}>;

export type DeleteApiKeyMutation = { deleteApiKey: string };

export type CreateAgentTokenMutationVariables = Exact<{
  input?: CreateAgentTokenInput | null | undefined;
}>;

export type CreateAgentTokenMutation = { createAgentToken: { token: string } };

export type RevokeAgentTokenMutationVariables = Exact<{ [key: string]: never }>;

export type RevokeAgentTokenMutation = { revokeAgentToken: boolean };

export type InviteMemberMutationVariables = Exact<{
  input: InviteMemberInput;
}>;

export type InviteMemberMutation = { inviteMember: { id: string } };

export type ResendInvitationMutationVariables = Exact<{
  id: string | number;
}>;

export type ResendInvitationMutation = { resendInvitation: { id: string } };

export type CancelInvitationMutationVariables = Exact<{
  id: string | number;
}>;

export type CancelInvitationMutation = { cancelInvitation: { id: string } };

export type UpdateMemberRoleMutationVariables = Exact<{
  memberId: string | number;
  role: Role;
}>;

export type UpdateMemberRoleMutation = { updateMemberRole: { id: string } };

export type RemoveMemberMutationVariables = Exact<{
  memberId: string | number;
}>;

export type RemoveMemberMutation = { removeMember: string };

export type GrantAccessMutationVariables = Exact<{
  input: GrantAccessInput;
}>;

export type GrantAccessMutation = { grantAccess: { id: string } };

export type RevokeAccessMutationVariables = Exact<{
  grantId: string | number;
}>;

export type RevokeAccessMutation = { revokeAccess: string };

export type SiteImportRowFragment = {
  id: string;
  name: string;
  status: SiteImportStatus;
  errorStep: SiteImportStep | null;
  errorMessage: string | null;
  attempts: number;
  createdAt: string;
  updatedAt: string;
  finishedAt: string | null;
  projectId: string | null;
  applicationId: string | null;
  databaseId: string | null;
  domainId: string | null;
  databaseType: DatabaseType | null;
  databaseServiceHost: string | null;
  project: { id: string; name: string } | null;
  application: { id: string; name: string; appName: string } | null;
  database: { id: string; name: string } | null;
  domain: { id: string; host: string } | null;
};

export type SiteImportsQueryVariables = Exact<{
  first: number;
  offset: number;
}>;

export type SiteImportsQuery = {
  siteImports: {
    totalCount: number;
    edges: Array<{
      node: {
        id: string;
        name: string;
        status: SiteImportStatus;
        errorStep: SiteImportStep | null;
        errorMessage: string | null;
        attempts: number;
        createdAt: string;
        updatedAt: string;
        finishedAt: string | null;
        projectId: string | null;
        applicationId: string | null;
        databaseId: string | null;
        domainId: string | null;
        databaseType: DatabaseType | null;
        databaseServiceHost: string | null;
        project: { id: string; name: string } | null;
        application: { id: string; name: string; appName: string } | null;
        database: { id: string; name: string } | null;
        domain: { id: string; host: string } | null;
      };
    }>;
  };
};

export type SiteImportUpdatedSubscriptionVariables = Exact<{
  after?: string | null | undefined;
}>;

export type SiteImportUpdatedSubscription = {
  siteImportUpdated: {
    importId: string;
    status: SiteImportUpdateStatus;
    cursor: string;
    siteImport: {
      id: string;
      name: string;
      status: SiteImportStatus;
      errorStep: SiteImportStep | null;
      errorMessage: string | null;
      attempts: number;
      createdAt: string;
      updatedAt: string;
      finishedAt: string | null;
      projectId: string | null;
      applicationId: string | null;
      databaseId: string | null;
      domainId: string | null;
      databaseType: DatabaseType | null;
      databaseServiceHost: string | null;
      project: { id: string; name: string } | null;
      application: { id: string; name: string; appName: string } | null;
      database: { id: string; name: string } | null;
      domain: { id: string; host: string } | null;
    } | null;
  };
};

export type ImportPrerequisitesQueryVariables = Exact<{
  id: string | number;
}>;

export type ImportPrerequisitesQuery = {
  organization: {
    id: string;
    gitProviders: Array<{ id: string; name: string; type: GitProviderType }>;
    sshKeys: Array<{ id: string; name: string }>;
    containerRegistries: Array<{ id: string; name: string }>;
  } | null;
};

export type PreviewSiteImportQueryVariables = Exact<{
  input: SiteImportInput;
}>;

export type PreviewSiteImportQuery = {
  previewSiteImport: {
    valid: boolean;
    warnings: Array<string>;
    errors: Array<string>;
    resources: {
      project: { name: string };
      database: { type: DatabaseType; name: string } | null;
      application: { name: string; sourceType: SourceType; buildType: BuildType | null };
      domain: { host: string } | null;
    };
  };
};

export type ImportSiteMutationVariables = Exact<{
  input: SiteImportInput;
}>;

export type ImportSiteMutation = {
  importSite: {
    importId: string;
    status: SiteImportStatus;
    errorStep: SiteImportStep | null;
    errorMessage: string | null;
    siteImport: {
      id: string;
      name: string;
      status: SiteImportStatus;
      errorStep: SiteImportStep | null;
      errorMessage: string | null;
      attempts: number;
      createdAt: string;
      updatedAt: string;
      finishedAt: string | null;
      projectId: string | null;
      applicationId: string | null;
      databaseId: string | null;
      domainId: string | null;
      databaseType: DatabaseType | null;
      databaseServiceHost: string | null;
      project: { id: string; name: string } | null;
      application: { id: string; name: string; appName: string } | null;
      database: { id: string; name: string } | null;
      domain: { id: string; host: string } | null;
    };
  };
};

export type RetrySiteImportMutationVariables = Exact<{
  id: string | number;
}>;

export type RetrySiteImportMutation = {
  retrySiteImport: {
    importId: string;
    status: SiteImportStatus;
    errorStep: SiteImportStep | null;
    errorMessage: string | null;
    siteImport: {
      id: string;
      name: string;
      status: SiteImportStatus;
      errorStep: SiteImportStep | null;
      errorMessage: string | null;
      attempts: number;
      createdAt: string;
      updatedAt: string;
      finishedAt: string | null;
      projectId: string | null;
      applicationId: string | null;
      databaseId: string | null;
      domainId: string | null;
      databaseType: DatabaseType | null;
      databaseServiceHost: string | null;
      project: { id: string; name: string } | null;
      application: { id: string; name: string; appName: string } | null;
      database: { id: string; name: string } | null;
      domain: { id: string; host: string } | null;
    };
  };
};

export type DeleteSiteImportMutationVariables = Exact<{
  id: string | number;
  rollbackResources: boolean;
}>;

export type DeleteSiteImportMutation = {
  deleteSiteImport: { id: string; rolledBack: boolean; deletedProjectId: string | null };
};

export type WebhookEndpointRowFragment = {
  webhookUuid: string;
  url: string;
  events: Array<string>;
  isActive: boolean;
  description: string | null;
  creationDate: string;
  updateDate: string;
};

export type WebhookDeliveryRowFragment = {
  deliveryId: string;
  event: string;
  attempt: number;
  success: boolean;
  responseStatus: number | null;
  errorMessage: string | null;
  durationMs: number;
  createdAt: string;
};

export type WebhooksQueryVariables = Exact<{
  organizationId: string | number;
}>;

export type WebhooksQuery = {
  webhooks: Array<{
    webhookUuid: string;
    url: string;
    events: Array<string>;
    isActive: boolean;
    description: string | null;
    creationDate: string;
    updateDate: string;
  }>;
  webhookEvents: Array<{ name: string; category: string; description: string }>;
};

export type WebhookDeliveriesQueryVariables = Exact<{
  organizationId: string | number;
  webhookUuid: string | number;
  limit?: number | null | undefined;
}>;

export type WebhookDeliveriesQuery = {
  webhookDeliveries: Array<{
    deliveryId: string;
    event: string;
    attempt: number;
    success: boolean;
    responseStatus: number | null;
    errorMessage: string | null;
    durationMs: number;
    createdAt: string;
  }>;
};

export type CreateWebhookMutationVariables = Exact<{
  organizationId: string | number;
  input: CreateWebhookInput;
}>;

export type CreateWebhookMutation = {
  createWebhook: {
    secret: string;
    webhook: {
      webhookUuid: string;
      url: string;
      events: Array<string>;
      isActive: boolean;
      description: string | null;
      creationDate: string;
      updateDate: string;
    };
  };
};

export type UpdateWebhookMutationVariables = Exact<{
  organizationId: string | number;
  webhookUuid: string | number;
  input: UpdateWebhookInput;
}>;

export type UpdateWebhookMutation = {
  updateWebhook: {
    webhookUuid: string;
    url: string;
    events: Array<string>;
    isActive: boolean;
    description: string | null;
    creationDate: string;
    updateDate: string;
  };
};

export type DeleteWebhookMutationVariables = Exact<{
  organizationId: string | number;
  webhookUuid: string | number;
}>;

export type DeleteWebhookMutation = { deleteWebhook: string };

export type RegenerateWebhookSecretMutationVariables = Exact<{
  organizationId: string | number;
  webhookUuid: string | number;
}>;

export type RegenerateWebhookSecretMutation = { regenerateWebhookSecret: { secret: string } };

export type TestWebhookMutationVariables = Exact<{
  organizationId: string | number;
  webhookUuid: string | number;
}>;

export type TestWebhookMutation = {
  testWebhook: {
    deliveryId: string;
    firstAttempt: {
      deliveryId: string;
      event: string;
      attempt: number;
      success: boolean;
      responseStatus: number | null;
      errorMessage: string | null;
      durationMs: number;
      createdAt: string;
    } | null;
  };
};

export type RedeliverWebhookMutationVariables = Exact<{
  organizationId: string | number;
  webhookUuid: string | number;
  deliveryId: string;
}>;

export type RedeliverWebhookMutation = { redeliverWebhook: string };

export type ViewerQueryVariables = Exact<{ [key: string]: never }>;

export type ViewerQuery = {
  viewer: {
    role: Role | null;
    user: { id: string; email: string; name: string; twoFactorEnabled: boolean };
    activeOrganization: { id: string; name: string } | null;
  };
  organizations: Array<{ id: string; name: string; viewerRole: Role; plan: { name: string } }>;
};

export type SetActiveOrganizationMutationVariables = Exact<{
  id: string | number;
}>;

export type SetActiveOrganizationMutation = { setActiveOrganization: { activeOrganization: { id: string } | null } };

export type CreateOrganizationMutationVariables = Exact<{
  input: CreateOrganizationInput;
}>;

export type CreateOrganizationMutation = { createOrganization: { id: string; name: string } };

export const ApplicationManageFieldsFragmentDoc = {
  kind: "Document",
  definitions: [
    {
      kind: "FragmentDefinition",
      name: { kind: "Name", value: "ApplicationManageFields" },
      typeCondition: { kind: "NamedType", name: { kind: "Name", value: "Application" } },
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          { kind: "Field", name: { kind: "Name", value: "id" } },
          { kind: "Field", name: { kind: "Name", value: "name" } },
          { kind: "Field", name: { kind: "Name", value: "needsDeployment" } },
          { kind: "Field", name: { kind: "Name", value: "sourceType" } },
          { kind: "Field", name: { kind: "Name", value: "buildType" } },
          { kind: "Field", name: { kind: "Name", value: "port" } },
          {
            kind: "Field",
            name: { kind: "Name", value: "source" },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "type" } },
                { kind: "Field", name: { kind: "Name", value: "repo" } },
                { kind: "Field", name: { kind: "Name", value: "branch" } },
                { kind: "Field", name: { kind: "Name", value: "buildPath" } },
                { kind: "Field", name: { kind: "Name", value: "dockerImage" } },
                { kind: "Field", name: { kind: "Name", value: "customGitUrl" } },
              ],
            },
          },
          {
            kind: "Field",
            name: { kind: "Name", value: "deploySettings" },
            selectionSet: {
              kind: "SelectionSet",
              selections: [{ kind: "Field", name: { kind: "Name", value: "healthPath" } }],
            },
          },
          {
            kind: "Field",
            name: { kind: "Name", value: "domains" },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "id" } },
                { kind: "Field", name: { kind: "Name", value: "host" } },
                { kind: "Field", name: { kind: "Name", value: "port" } },
                { kind: "Field", name: { kind: "Name", value: "https" } },
                { kind: "Field", name: { kind: "Name", value: "createdAt" } },
              ],
            },
          },
          {
            kind: "Field",
            name: { kind: "Name", value: "environmentVariables" },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "key" } },
                { kind: "Field", name: { kind: "Name", value: "value" } },
              ],
            },
          },
        ],
      },
    },
  ],
} as unknown as DocumentNode<ApplicationManageFieldsFragment, unknown>;
export const DeploySettingsFieldsFragmentDoc = {
  kind: "Document",
  definitions: [
    {
      kind: "FragmentDefinition",
      name: { kind: "Name", value: "DeploySettingsFields" },
      typeCondition: { kind: "NamedType", name: { kind: "Name", value: "DeploySettings" } },
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          { kind: "Field", name: { kind: "Name", value: "autoDeploy" } },
          { kind: "Field", name: { kind: "Name", value: "branchFilter" } },
          { kind: "Field", name: { kind: "Name", value: "watchPaths" } },
          { kind: "Field", name: { kind: "Name", value: "requireSignature" } },
          { kind: "Field", name: { kind: "Name", value: "hasWebhookSecret" } },
          { kind: "Field", name: { kind: "Name", value: "healthPath" } },
        ],
      },
    },
  ],
} as unknown as DocumentNode<DeploySettingsFieldsFragment, unknown>;
export const DeploymentRowFragmentDoc = {
  kind: "Document",
  definitions: [
    {
      kind: "FragmentDefinition",
      name: { kind: "Name", value: "DeploymentRow" },
      typeCondition: { kind: "NamedType", name: { kind: "Name", value: "Deployment" } },
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          { kind: "Field", name: { kind: "Name", value: "id" } },
          { kind: "Field", name: { kind: "Name", value: "status" } },
          { kind: "Field", name: { kind: "Name", value: "title" } },
          { kind: "Field", name: { kind: "Name", value: "description" } },
          { kind: "Field", name: { kind: "Name", value: "trigger" } },
          { kind: "Field", name: { kind: "Name", value: "commitSha" } },
          { kind: "Field", name: { kind: "Name", value: "errorMessage" } },
          { kind: "Field", name: { kind: "Name", value: "createdAt" } },
          { kind: "Field", name: { kind: "Name", value: "startedAt" } },
          { kind: "Field", name: { kind: "Name", value: "finishedAt" } },
        ],
      },
    },
  ],
} as unknown as DocumentNode<DeploymentRowFragment, unknown>;
export const DocsThemeFieldsFragmentDoc = {
  kind: "Document",
  definitions: [
    {
      kind: "FragmentDefinition",
      name: { kind: "Name", value: "DocsThemeFields" },
      typeCondition: { kind: "NamedType", name: { kind: "Name", value: "DocsTheme" } },
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          { kind: "Field", name: { kind: "Name", value: "siteName" } },
          { kind: "Field", name: { kind: "Name", value: "logoUrl" } },
          { kind: "Field", name: { kind: "Name", value: "faviconUrl" } },
          { kind: "Field", name: { kind: "Name", value: "colorsLight" } },
          { kind: "Field", name: { kind: "Name", value: "colorsDark" } },
          { kind: "Field", name: { kind: "Name", value: "footerText" } },
          { kind: "Field", name: { kind: "Name", value: "customCss" } },
          { kind: "Field", name: { kind: "Name", value: "docsHostname" } },
          { kind: "Field", name: { kind: "Name", value: "themeUrl" } },
          { kind: "Field", name: { kind: "Name", value: "loaderSnippet" } },
          { kind: "Field", name: { kind: "Name", value: "updatedAt" } },
          {
            kind: "Field",
            name: { kind: "Name", value: "docsRegistration" },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "hostname" } },
                { kind: "Field", name: { kind: "Name", value: "syncedAt" } },
                { kind: "Field", name: { kind: "Name", value: "dns" } },
                { kind: "Field", name: { kind: "Name", value: "cnameTarget" } },
                { kind: "Field", name: { kind: "Name", value: "conflict" } },
              ],
            },
          },
        ],
      },
    },
  ],
} as unknown as DocumentNode<DocsThemeFieldsFragment, unknown>;
export const PaymentServiceRowFragmentDoc = {
  kind: "Document",
  definitions: [
    {
      kind: "FragmentDefinition",
      name: { kind: "Name", value: "PaymentServiceRow" },
      typeCondition: { kind: "NamedType", name: { kind: "Name", value: "PaymentGatewayService" } },
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          { kind: "Field", name: { kind: "Name", value: "id" } },
          { kind: "Field", name: { kind: "Name", value: "name" } },
          { kind: "Field", name: { kind: "Name", value: "webhookUrl" } },
          { kind: "Field", name: { kind: "Name", value: "createdAt" } },
          { kind: "Field", name: { kind: "Name", value: "merchantCode" } },
          { kind: "Field", name: { kind: "Name", value: "merchantStatus" } },
          { kind: "Field", name: { kind: "Name", value: "checkoutUrl" } },
          {
            kind: "Field",
            name: { kind: "Name", value: "paymentMethods" },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "id" } },
                { kind: "Field", name: { kind: "Name", value: "label" } },
                { kind: "Field", name: { kind: "Name", value: "kind" } },
                { kind: "Field", name: { kind: "Name", value: "enabled" } },
              ],
            },
          },
        ],
      },
    },
  ],
} as unknown as DocumentNode<PaymentServiceRowFragment, unknown>;
export const PaymentRelayRowFragmentDoc = {
  kind: "Document",
  definitions: [
    {
      kind: "FragmentDefinition",
      name: { kind: "Name", value: "PaymentRelayRow" },
      typeCondition: { kind: "NamedType", name: { kind: "Name", value: "PaymentRelay" } },
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          { kind: "Field", name: { kind: "Name", value: "id" } },
          { kind: "Field", name: { kind: "Name", value: "eventType" } },
          { kind: "Field", name: { kind: "Name", value: "knownEvent" } },
          { kind: "Field", name: { kind: "Name", value: "externalReference" } },
          { kind: "Field", name: { kind: "Name", value: "targetUrl" } },
          { kind: "Field", name: { kind: "Name", value: "outcome" } },
          { kind: "Field", name: { kind: "Name", value: "statusCode" } },
          { kind: "Field", name: { kind: "Name", value: "error" } },
          { kind: "Field", name: { kind: "Name", value: "durationMs" } },
          { kind: "Field", name: { kind: "Name", value: "createdAt" } },
        ],
      },
    },
  ],
} as unknown as DocumentNode<PaymentRelayRowFragment, unknown>;
export const MemberRowFragmentDoc = {
  kind: "Document",
  definitions: [
    {
      kind: "FragmentDefinition",
      name: { kind: "Name", value: "MemberRow" },
      typeCondition: { kind: "NamedType", name: { kind: "Name", value: "Member" } },
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          { kind: "Field", name: { kind: "Name", value: "id" } },
          { kind: "Field", name: { kind: "Name", value: "role" } },
          { kind: "Field", name: { kind: "Name", value: "createdAt" } },
          {
            kind: "Field",
            name: { kind: "Name", value: "user" },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "id" } },
                { kind: "Field", name: { kind: "Name", value: "email" } },
                { kind: "Field", name: { kind: "Name", value: "name" } },
              ],
            },
          },
          {
            kind: "Field",
            name: { kind: "Name", value: "grants" },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "id" } },
                { kind: "Field", name: { kind: "Name", value: "createdAt" } },
                {
                  kind: "Field",
                  name: { kind: "Name", value: "project" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [
                      { kind: "Field", name: { kind: "Name", value: "id" } },
                      { kind: "Field", name: { kind: "Name", value: "name" } },
                    ],
                  },
                },
                {
                  kind: "Field",
                  name: { kind: "Name", value: "application" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [
                      { kind: "Field", name: { kind: "Name", value: "id" } },
                      { kind: "Field", name: { kind: "Name", value: "name" } },
                    ],
                  },
                },
              ],
            },
          },
        ],
      },
    },
  ],
} as unknown as DocumentNode<MemberRowFragment, unknown>;
export const SiteImportRowFragmentDoc = {
  kind: "Document",
  definitions: [
    {
      kind: "FragmentDefinition",
      name: { kind: "Name", value: "SiteImportRow" },
      typeCondition: { kind: "NamedType", name: { kind: "Name", value: "SiteImport" } },
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          { kind: "Field", name: { kind: "Name", value: "id" } },
          { kind: "Field", name: { kind: "Name", value: "name" } },
          { kind: "Field", name: { kind: "Name", value: "status" } },
          { kind: "Field", name: { kind: "Name", value: "errorStep" } },
          { kind: "Field", name: { kind: "Name", value: "errorMessage" } },
          { kind: "Field", name: { kind: "Name", value: "attempts" } },
          { kind: "Field", name: { kind: "Name", value: "createdAt" } },
          { kind: "Field", name: { kind: "Name", value: "updatedAt" } },
          { kind: "Field", name: { kind: "Name", value: "finishedAt" } },
          { kind: "Field", name: { kind: "Name", value: "projectId" } },
          { kind: "Field", name: { kind: "Name", value: "applicationId" } },
          { kind: "Field", name: { kind: "Name", value: "databaseId" } },
          { kind: "Field", name: { kind: "Name", value: "domainId" } },
          { kind: "Field", name: { kind: "Name", value: "databaseType" } },
          { kind: "Field", name: { kind: "Name", value: "databaseServiceHost" } },
          {
            kind: "Field",
            name: { kind: "Name", value: "project" },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "id" } },
                { kind: "Field", name: { kind: "Name", value: "name" } },
              ],
            },
          },
          {
            kind: "Field",
            name: { kind: "Name", value: "application" },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "id" } },
                { kind: "Field", name: { kind: "Name", value: "name" } },
                { kind: "Field", name: { kind: "Name", value: "appName" } },
              ],
            },
          },
          {
            kind: "Field",
            name: { kind: "Name", value: "database" },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "id" } },
                { kind: "Field", name: { kind: "Name", value: "name" } },
              ],
            },
          },
          {
            kind: "Field",
            name: { kind: "Name", value: "domain" },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "id" } },
                { kind: "Field", name: { kind: "Name", value: "host" } },
              ],
            },
          },
        ],
      },
    },
  ],
} as unknown as DocumentNode<SiteImportRowFragment, unknown>;
export const WebhookEndpointRowFragmentDoc = {
  kind: "Document",
  definitions: [
    {
      kind: "FragmentDefinition",
      name: { kind: "Name", value: "WebhookEndpointRow" },
      typeCondition: { kind: "NamedType", name: { kind: "Name", value: "WebhookEndpoint" } },
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          { kind: "Field", name: { kind: "Name", value: "webhookUuid" } },
          { kind: "Field", name: { kind: "Name", value: "url" } },
          { kind: "Field", name: { kind: "Name", value: "events" } },
          { kind: "Field", name: { kind: "Name", value: "isActive" } },
          { kind: "Field", name: { kind: "Name", value: "description" } },
          { kind: "Field", name: { kind: "Name", value: "creationDate" } },
          { kind: "Field", name: { kind: "Name", value: "updateDate" } },
        ],
      },
    },
  ],
} as unknown as DocumentNode<WebhookEndpointRowFragment, unknown>;
export const WebhookDeliveryRowFragmentDoc = {
  kind: "Document",
  definitions: [
    {
      kind: "FragmentDefinition",
      name: { kind: "Name", value: "WebhookDeliveryRow" },
      typeCondition: { kind: "NamedType", name: { kind: "Name", value: "WebhookDeliveryAttempt" } },
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          { kind: "Field", name: { kind: "Name", value: "deliveryId" } },
          { kind: "Field", name: { kind: "Name", value: "event" } },
          { kind: "Field", name: { kind: "Name", value: "attempt" } },
          { kind: "Field", name: { kind: "Name", value: "success" } },
          { kind: "Field", name: { kind: "Name", value: "responseStatus" } },
          { kind: "Field", name: { kind: "Name", value: "errorMessage" } },
          { kind: "Field", name: { kind: "Name", value: "durationMs" } },
          { kind: "Field", name: { kind: "Name", value: "createdAt" } },
        ],
      },
    },
  ],
} as unknown as DocumentNode<WebhookDeliveryRowFragment, unknown>;
export const LeaveOrganizationDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "mutation",
      name: { kind: "Name", value: "LeaveOrganization" },
      variableDefinitions: [
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "organizationId" } },
          type: { kind: "NonNullType", type: { kind: "NamedType", name: { kind: "Name", value: "ID" } } },
        },
      ],
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          {
            kind: "Field",
            name: { kind: "Name", value: "leaveOrganization" },
            arguments: [
              {
                kind: "Argument",
                name: { kind: "Name", value: "organizationId" },
                value: { kind: "Variable", name: { kind: "Name", value: "organizationId" } },
              },
            ],
          },
        ],
      },
    },
  ],
} as unknown as DocumentNode<LeaveOrganizationMutation, LeaveOrganizationMutationVariables>;
export const AuditEventsDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "query",
      name: { kind: "Name", value: "AuditEvents" },
      variableDefinitions: [
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "action" } },
          type: { kind: "NamedType", name: { kind: "Name", value: "String" } },
        },
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "actor" } },
          type: { kind: "NamedType", name: { kind: "Name", value: "ID" } },
        },
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "target" } },
          type: { kind: "NamedType", name: { kind: "Name", value: "ID" } },
        },
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "since" } },
          type: { kind: "NamedType", name: { kind: "Name", value: "DateTime" } },
        },
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "until" } },
          type: { kind: "NamedType", name: { kind: "Name", value: "DateTime" } },
        },
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "after" } },
          type: { kind: "NamedType", name: { kind: "Name", value: "String" } },
        },
      ],
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          {
            kind: "Field",
            name: { kind: "Name", value: "auditEvents" },
            arguments: [
              {
                kind: "Argument",
                name: { kind: "Name", value: "action" },
                value: { kind: "Variable", name: { kind: "Name", value: "action" } },
              },
              {
                kind: "Argument",
                name: { kind: "Name", value: "actorUserId" },
                value: { kind: "Variable", name: { kind: "Name", value: "actor" } },
              },
              {
                kind: "Argument",
                name: { kind: "Name", value: "targetId" },
                value: { kind: "Variable", name: { kind: "Name", value: "target" } },
              },
              {
                kind: "Argument",
                name: { kind: "Name", value: "since" },
                value: { kind: "Variable", name: { kind: "Name", value: "since" } },
              },
              {
                kind: "Argument",
                name: { kind: "Name", value: "until" },
                value: { kind: "Variable", name: { kind: "Name", value: "until" } },
              },
              { kind: "Argument", name: { kind: "Name", value: "first" }, value: { kind: "IntValue", value: "50" } },
              {
                kind: "Argument",
                name: { kind: "Name", value: "after" },
                value: { kind: "Variable", name: { kind: "Name", value: "after" } },
              },
            ],
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "totalCount" } },
                {
                  kind: "Field",
                  name: { kind: "Name", value: "pageInfo" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [
                      { kind: "Field", name: { kind: "Name", value: "hasNextPage" } },
                      { kind: "Field", name: { kind: "Name", value: "endCursor" } },
                    ],
                  },
                },
                {
                  kind: "Field",
                  name: { kind: "Name", value: "nodes" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [
                      { kind: "Field", name: { kind: "Name", value: "id" } },
                      { kind: "Field", name: { kind: "Name", value: "occurredAt" } },
                      { kind: "Field", name: { kind: "Name", value: "actorKind" } },
                      { kind: "Field", name: { kind: "Name", value: "actorUserId" } },
                      { kind: "Field", name: { kind: "Name", value: "credentialKind" } },
                      { kind: "Field", name: { kind: "Name", value: "credentialId" } },
                      { kind: "Field", name: { kind: "Name", value: "surface" } },
                      { kind: "Field", name: { kind: "Name", value: "action" } },
                      { kind: "Field", name: { kind: "Name", value: "targetIds" } },
                      { kind: "Field", name: { kind: "Name", value: "outcome" } },
                      { kind: "Field", name: { kind: "Name", value: "clientAddress" } },
                      { kind: "Field", name: { kind: "Name", value: "requestId" } },
                    ],
                  },
                },
              ],
            },
          },
        ],
      },
    },
  ],
} as unknown as DocumentNode<AuditEventsQuery, AuditEventsQueryVariables>;
export const InvitationLinkDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "query",
      name: { kind: "Name", value: "InvitationLink" },
      variableDefinitions: [
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "token" } },
          type: { kind: "NonNullType", type: { kind: "NamedType", name: { kind: "Name", value: "String" } } },
        },
      ],
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          {
            kind: "Field",
            name: { kind: "Name", value: "invitationLink" },
            arguments: [
              {
                kind: "Argument",
                name: { kind: "Name", value: "token" },
                value: { kind: "Variable", name: { kind: "Name", value: "token" } },
              },
            ],
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "valid" } },
                { kind: "Field", name: { kind: "Name", value: "status" } },
                { kind: "Field", name: { kind: "Name", value: "organizationName" } },
                { kind: "Field", name: { kind: "Name", value: "email" } },
                { kind: "Field", name: { kind: "Name", value: "role" } },
                { kind: "Field", name: { kind: "Name", value: "expiresAt" } },
                { kind: "Field", name: { kind: "Name", value: "accountExists" } },
              ],
            },
          },
        ],
      },
    },
  ],
} as unknown as DocumentNode<InvitationLinkQuery, InvitationLinkQueryVariables>;
export const AcceptInvitationDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "mutation",
      name: { kind: "Name", value: "AcceptInvitation" },
      variableDefinitions: [
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "token" } },
          type: { kind: "NonNullType", type: { kind: "NamedType", name: { kind: "Name", value: "String" } } },
        },
      ],
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          {
            kind: "Field",
            name: { kind: "Name", value: "acceptInvitation" },
            arguments: [
              {
                kind: "Argument",
                name: { kind: "Name", value: "token" },
                value: { kind: "Variable", name: { kind: "Name", value: "token" } },
              },
            ],
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "id" } },
                { kind: "Field", name: { kind: "Name", value: "role" } },
                {
                  kind: "Field",
                  name: { kind: "Name", value: "organization" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [
                      { kind: "Field", name: { kind: "Name", value: "id" } },
                      { kind: "Field", name: { kind: "Name", value: "name" } },
                    ],
                  },
                },
              ],
            },
          },
        ],
      },
    },
  ],
} as unknown as DocumentNode<AcceptInvitationMutation, AcceptInvitationMutationVariables>;
export const SignUpWithInvitationDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "mutation",
      name: { kind: "Name", value: "SignUpWithInvitation" },
      variableDefinitions: [
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "input" } },
          type: {
            kind: "NonNullType",
            type: { kind: "NamedType", name: { kind: "Name", value: "SignUpWithInvitationInput" } },
          },
        },
      ],
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          {
            kind: "Field",
            name: { kind: "Name", value: "signUpWithInvitation" },
            arguments: [
              {
                kind: "Argument",
                name: { kind: "Name", value: "input" },
                value: { kind: "Variable", name: { kind: "Name", value: "input" } },
              },
            ],
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "id" } },
                { kind: "Field", name: { kind: "Name", value: "email" } },
              ],
            },
          },
        ],
      },
    },
  ],
} as unknown as DocumentNode<SignUpWithInvitationMutation, SignUpWithInvitationMutationVariables>;
export const ApplicationManageDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "query",
      name: { kind: "Name", value: "ApplicationManage" },
      variableDefinitions: [
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "id" } },
          type: { kind: "NonNullType", type: { kind: "NamedType", name: { kind: "Name", value: "ID" } } },
        },
      ],
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          {
            kind: "Field",
            name: { kind: "Name", value: "application" },
            arguments: [
              {
                kind: "Argument",
                name: { kind: "Name", value: "id" },
                value: { kind: "Variable", name: { kind: "Name", value: "id" } },
              },
            ],
            selectionSet: {
              kind: "SelectionSet",
              selections: [{ kind: "FragmentSpread", name: { kind: "Name", value: "ApplicationManageFields" } }],
            },
          },
        ],
      },
    },
    {
      kind: "FragmentDefinition",
      name: { kind: "Name", value: "ApplicationManageFields" },
      typeCondition: { kind: "NamedType", name: { kind: "Name", value: "Application" } },
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          { kind: "Field", name: { kind: "Name", value: "id" } },
          { kind: "Field", name: { kind: "Name", value: "name" } },
          { kind: "Field", name: { kind: "Name", value: "needsDeployment" } },
          { kind: "Field", name: { kind: "Name", value: "sourceType" } },
          { kind: "Field", name: { kind: "Name", value: "buildType" } },
          { kind: "Field", name: { kind: "Name", value: "port" } },
          {
            kind: "Field",
            name: { kind: "Name", value: "source" },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "type" } },
                { kind: "Field", name: { kind: "Name", value: "repo" } },
                { kind: "Field", name: { kind: "Name", value: "branch" } },
                { kind: "Field", name: { kind: "Name", value: "buildPath" } },
                { kind: "Field", name: { kind: "Name", value: "dockerImage" } },
                { kind: "Field", name: { kind: "Name", value: "customGitUrl" } },
              ],
            },
          },
          {
            kind: "Field",
            name: { kind: "Name", value: "deploySettings" },
            selectionSet: {
              kind: "SelectionSet",
              selections: [{ kind: "Field", name: { kind: "Name", value: "healthPath" } }],
            },
          },
          {
            kind: "Field",
            name: { kind: "Name", value: "domains" },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "id" } },
                { kind: "Field", name: { kind: "Name", value: "host" } },
                { kind: "Field", name: { kind: "Name", value: "port" } },
                { kind: "Field", name: { kind: "Name", value: "https" } },
                { kind: "Field", name: { kind: "Name", value: "createdAt" } },
              ],
            },
          },
          {
            kind: "Field",
            name: { kind: "Name", value: "environmentVariables" },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "key" } },
                { kind: "Field", name: { kind: "Name", value: "value" } },
              ],
            },
          },
        ],
      },
    },
  ],
} as unknown as DocumentNode<ApplicationManageQuery, ApplicationManageQueryVariables>;
export const SetEnvironmentVariableDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "mutation",
      name: { kind: "Name", value: "SetEnvironmentVariable" },
      variableDefinitions: [
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "applicationId" } },
          type: { kind: "NonNullType", type: { kind: "NamedType", name: { kind: "Name", value: "ID" } } },
        },
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "key" } },
          type: { kind: "NonNullType", type: { kind: "NamedType", name: { kind: "Name", value: "String" } } },
        },
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "value" } },
          type: { kind: "NonNullType", type: { kind: "NamedType", name: { kind: "Name", value: "String" } } },
        },
      ],
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          {
            kind: "Field",
            name: { kind: "Name", value: "setEnvironmentVariable" },
            arguments: [
              {
                kind: "Argument",
                name: { kind: "Name", value: "applicationId" },
                value: { kind: "Variable", name: { kind: "Name", value: "applicationId" } },
              },
              {
                kind: "Argument",
                name: { kind: "Name", value: "key" },
                value: { kind: "Variable", name: { kind: "Name", value: "key" } },
              },
              {
                kind: "Argument",
                name: { kind: "Name", value: "value" },
                value: { kind: "Variable", name: { kind: "Name", value: "value" } },
              },
            ],
            selectionSet: {
              kind: "SelectionSet",
              selections: [{ kind: "FragmentSpread", name: { kind: "Name", value: "ApplicationManageFields" } }],
            },
          },
        ],
      },
    },
    {
      kind: "FragmentDefinition",
      name: { kind: "Name", value: "ApplicationManageFields" },
      typeCondition: { kind: "NamedType", name: { kind: "Name", value: "Application" } },
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          { kind: "Field", name: { kind: "Name", value: "id" } },
          { kind: "Field", name: { kind: "Name", value: "name" } },
          { kind: "Field", name: { kind: "Name", value: "needsDeployment" } },
          { kind: "Field", name: { kind: "Name", value: "sourceType" } },
          { kind: "Field", name: { kind: "Name", value: "buildType" } },
          { kind: "Field", name: { kind: "Name", value: "port" } },
          {
            kind: "Field",
            name: { kind: "Name", value: "source" },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "type" } },
                { kind: "Field", name: { kind: "Name", value: "repo" } },
                { kind: "Field", name: { kind: "Name", value: "branch" } },
                { kind: "Field", name: { kind: "Name", value: "buildPath" } },
                { kind: "Field", name: { kind: "Name", value: "dockerImage" } },
                { kind: "Field", name: { kind: "Name", value: "customGitUrl" } },
              ],
            },
          },
          {
            kind: "Field",
            name: { kind: "Name", value: "deploySettings" },
            selectionSet: {
              kind: "SelectionSet",
              selections: [{ kind: "Field", name: { kind: "Name", value: "healthPath" } }],
            },
          },
          {
            kind: "Field",
            name: { kind: "Name", value: "domains" },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "id" } },
                { kind: "Field", name: { kind: "Name", value: "host" } },
                { kind: "Field", name: { kind: "Name", value: "port" } },
                { kind: "Field", name: { kind: "Name", value: "https" } },
                { kind: "Field", name: { kind: "Name", value: "createdAt" } },
              ],
            },
          },
          {
            kind: "Field",
            name: { kind: "Name", value: "environmentVariables" },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "key" } },
                { kind: "Field", name: { kind: "Name", value: "value" } },
              ],
            },
          },
        ],
      },
    },
  ],
} as unknown as DocumentNode<SetEnvironmentVariableMutation, SetEnvironmentVariableMutationVariables>;
export const PasteEnvironmentVariablesDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "mutation",
      name: { kind: "Name", value: "PasteEnvironmentVariables" },
      variableDefinitions: [
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "applicationId" } },
          type: { kind: "NonNullType", type: { kind: "NamedType", name: { kind: "Name", value: "ID" } } },
        },
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "dotenv" } },
          type: { kind: "NonNullType", type: { kind: "NamedType", name: { kind: "Name", value: "String" } } },
        },
      ],
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          {
            kind: "Field",
            name: { kind: "Name", value: "setEnvironmentVariables" },
            arguments: [
              {
                kind: "Argument",
                name: { kind: "Name", value: "applicationId" },
                value: { kind: "Variable", name: { kind: "Name", value: "applicationId" } },
              },
              {
                kind: "Argument",
                name: { kind: "Name", value: "dotenv" },
                value: { kind: "Variable", name: { kind: "Name", value: "dotenv" } },
              },
            ],
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "setKeys" } },
                {
                  kind: "Field",
                  name: { kind: "Name", value: "application" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [{ kind: "FragmentSpread", name: { kind: "Name", value: "ApplicationManageFields" } }],
                  },
                },
              ],
            },
          },
        ],
      },
    },
    {
      kind: "FragmentDefinition",
      name: { kind: "Name", value: "ApplicationManageFields" },
      typeCondition: { kind: "NamedType", name: { kind: "Name", value: "Application" } },
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          { kind: "Field", name: { kind: "Name", value: "id" } },
          { kind: "Field", name: { kind: "Name", value: "name" } },
          { kind: "Field", name: { kind: "Name", value: "needsDeployment" } },
          { kind: "Field", name: { kind: "Name", value: "sourceType" } },
          { kind: "Field", name: { kind: "Name", value: "buildType" } },
          { kind: "Field", name: { kind: "Name", value: "port" } },
          {
            kind: "Field",
            name: { kind: "Name", value: "source" },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "type" } },
                { kind: "Field", name: { kind: "Name", value: "repo" } },
                { kind: "Field", name: { kind: "Name", value: "branch" } },
                { kind: "Field", name: { kind: "Name", value: "buildPath" } },
                { kind: "Field", name: { kind: "Name", value: "dockerImage" } },
                { kind: "Field", name: { kind: "Name", value: "customGitUrl" } },
              ],
            },
          },
          {
            kind: "Field",
            name: { kind: "Name", value: "deploySettings" },
            selectionSet: {
              kind: "SelectionSet",
              selections: [{ kind: "Field", name: { kind: "Name", value: "healthPath" } }],
            },
          },
          {
            kind: "Field",
            name: { kind: "Name", value: "domains" },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "id" } },
                { kind: "Field", name: { kind: "Name", value: "host" } },
                { kind: "Field", name: { kind: "Name", value: "port" } },
                { kind: "Field", name: { kind: "Name", value: "https" } },
                { kind: "Field", name: { kind: "Name", value: "createdAt" } },
              ],
            },
          },
          {
            kind: "Field",
            name: { kind: "Name", value: "environmentVariables" },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "key" } },
                { kind: "Field", name: { kind: "Name", value: "value" } },
              ],
            },
          },
        ],
      },
    },
  ],
} as unknown as DocumentNode<PasteEnvironmentVariablesMutation, PasteEnvironmentVariablesMutationVariables>;
export const UnsetEnvironmentVariableDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "mutation",
      name: { kind: "Name", value: "UnsetEnvironmentVariable" },
      variableDefinitions: [
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "applicationId" } },
          type: { kind: "NonNullType", type: { kind: "NamedType", name: { kind: "Name", value: "ID" } } },
        },
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "key" } },
          type: { kind: "NonNullType", type: { kind: "NamedType", name: { kind: "Name", value: "String" } } },
        },
      ],
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          {
            kind: "Field",
            name: { kind: "Name", value: "unsetEnvironmentVariable" },
            arguments: [
              {
                kind: "Argument",
                name: { kind: "Name", value: "applicationId" },
                value: { kind: "Variable", name: { kind: "Name", value: "applicationId" } },
              },
              {
                kind: "Argument",
                name: { kind: "Name", value: "key" },
                value: { kind: "Variable", name: { kind: "Name", value: "key" } },
              },
            ],
            selectionSet: {
              kind: "SelectionSet",
              selections: [{ kind: "FragmentSpread", name: { kind: "Name", value: "ApplicationManageFields" } }],
            },
          },
        ],
      },
    },
    {
      kind: "FragmentDefinition",
      name: { kind: "Name", value: "ApplicationManageFields" },
      typeCondition: { kind: "NamedType", name: { kind: "Name", value: "Application" } },
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          { kind: "Field", name: { kind: "Name", value: "id" } },
          { kind: "Field", name: { kind: "Name", value: "name" } },
          { kind: "Field", name: { kind: "Name", value: "needsDeployment" } },
          { kind: "Field", name: { kind: "Name", value: "sourceType" } },
          { kind: "Field", name: { kind: "Name", value: "buildType" } },
          { kind: "Field", name: { kind: "Name", value: "port" } },
          {
            kind: "Field",
            name: { kind: "Name", value: "source" },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "type" } },
                { kind: "Field", name: { kind: "Name", value: "repo" } },
                { kind: "Field", name: { kind: "Name", value: "branch" } },
                { kind: "Field", name: { kind: "Name", value: "buildPath" } },
                { kind: "Field", name: { kind: "Name", value: "dockerImage" } },
                { kind: "Field", name: { kind: "Name", value: "customGitUrl" } },
              ],
            },
          },
          {
            kind: "Field",
            name: { kind: "Name", value: "deploySettings" },
            selectionSet: {
              kind: "SelectionSet",
              selections: [{ kind: "Field", name: { kind: "Name", value: "healthPath" } }],
            },
          },
          {
            kind: "Field",
            name: { kind: "Name", value: "domains" },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "id" } },
                { kind: "Field", name: { kind: "Name", value: "host" } },
                { kind: "Field", name: { kind: "Name", value: "port" } },
                { kind: "Field", name: { kind: "Name", value: "https" } },
                { kind: "Field", name: { kind: "Name", value: "createdAt" } },
              ],
            },
          },
          {
            kind: "Field",
            name: { kind: "Name", value: "environmentVariables" },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "key" } },
                { kind: "Field", name: { kind: "Name", value: "value" } },
              ],
            },
          },
        ],
      },
    },
  ],
} as unknown as DocumentNode<UnsetEnvironmentVariableMutation, UnsetEnvironmentVariableMutationVariables>;
export const AddDomainDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "mutation",
      name: { kind: "Name", value: "AddDomain" },
      variableDefinitions: [
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "input" } },
          type: { kind: "NonNullType", type: { kind: "NamedType", name: { kind: "Name", value: "AddDomainInput" } } },
        },
      ],
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          {
            kind: "Field",
            name: { kind: "Name", value: "addDomain" },
            arguments: [
              {
                kind: "Argument",
                name: { kind: "Name", value: "input" },
                value: { kind: "Variable", name: { kind: "Name", value: "input" } },
              },
            ],
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "id" } },
                {
                  kind: "Field",
                  name: { kind: "Name", value: "application" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [{ kind: "FragmentSpread", name: { kind: "Name", value: "ApplicationManageFields" } }],
                  },
                },
              ],
            },
          },
        ],
      },
    },
    {
      kind: "FragmentDefinition",
      name: { kind: "Name", value: "ApplicationManageFields" },
      typeCondition: { kind: "NamedType", name: { kind: "Name", value: "Application" } },
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          { kind: "Field", name: { kind: "Name", value: "id" } },
          { kind: "Field", name: { kind: "Name", value: "name" } },
          { kind: "Field", name: { kind: "Name", value: "needsDeployment" } },
          { kind: "Field", name: { kind: "Name", value: "sourceType" } },
          { kind: "Field", name: { kind: "Name", value: "buildType" } },
          { kind: "Field", name: { kind: "Name", value: "port" } },
          {
            kind: "Field",
            name: { kind: "Name", value: "source" },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "type" } },
                { kind: "Field", name: { kind: "Name", value: "repo" } },
                { kind: "Field", name: { kind: "Name", value: "branch" } },
                { kind: "Field", name: { kind: "Name", value: "buildPath" } },
                { kind: "Field", name: { kind: "Name", value: "dockerImage" } },
                { kind: "Field", name: { kind: "Name", value: "customGitUrl" } },
              ],
            },
          },
          {
            kind: "Field",
            name: { kind: "Name", value: "deploySettings" },
            selectionSet: {
              kind: "SelectionSet",
              selections: [{ kind: "Field", name: { kind: "Name", value: "healthPath" } }],
            },
          },
          {
            kind: "Field",
            name: { kind: "Name", value: "domains" },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "id" } },
                { kind: "Field", name: { kind: "Name", value: "host" } },
                { kind: "Field", name: { kind: "Name", value: "port" } },
                { kind: "Field", name: { kind: "Name", value: "https" } },
                { kind: "Field", name: { kind: "Name", value: "createdAt" } },
              ],
            },
          },
          {
            kind: "Field",
            name: { kind: "Name", value: "environmentVariables" },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "key" } },
                { kind: "Field", name: { kind: "Name", value: "value" } },
              ],
            },
          },
        ],
      },
    },
  ],
} as unknown as DocumentNode<AddDomainMutation, AddDomainMutationVariables>;
export const RemoveDomainDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "mutation",
      name: { kind: "Name", value: "RemoveDomain" },
      variableDefinitions: [
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "applicationId" } },
          type: { kind: "NonNullType", type: { kind: "NamedType", name: { kind: "Name", value: "ID" } } },
        },
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "host" } },
          type: { kind: "NonNullType", type: { kind: "NamedType", name: { kind: "Name", value: "String" } } },
        },
      ],
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          {
            kind: "Field",
            name: { kind: "Name", value: "removeDomain" },
            arguments: [
              {
                kind: "Argument",
                name: { kind: "Name", value: "applicationId" },
                value: { kind: "Variable", name: { kind: "Name", value: "applicationId" } },
              },
              {
                kind: "Argument",
                name: { kind: "Name", value: "host" },
                value: { kind: "Variable", name: { kind: "Name", value: "host" } },
              },
            ],
            selectionSet: {
              kind: "SelectionSet",
              selections: [{ kind: "FragmentSpread", name: { kind: "Name", value: "ApplicationManageFields" } }],
            },
          },
        ],
      },
    },
    {
      kind: "FragmentDefinition",
      name: { kind: "Name", value: "ApplicationManageFields" },
      typeCondition: { kind: "NamedType", name: { kind: "Name", value: "Application" } },
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          { kind: "Field", name: { kind: "Name", value: "id" } },
          { kind: "Field", name: { kind: "Name", value: "name" } },
          { kind: "Field", name: { kind: "Name", value: "needsDeployment" } },
          { kind: "Field", name: { kind: "Name", value: "sourceType" } },
          { kind: "Field", name: { kind: "Name", value: "buildType" } },
          { kind: "Field", name: { kind: "Name", value: "port" } },
          {
            kind: "Field",
            name: { kind: "Name", value: "source" },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "type" } },
                { kind: "Field", name: { kind: "Name", value: "repo" } },
                { kind: "Field", name: { kind: "Name", value: "branch" } },
                { kind: "Field", name: { kind: "Name", value: "buildPath" } },
                { kind: "Field", name: { kind: "Name", value: "dockerImage" } },
                { kind: "Field", name: { kind: "Name", value: "customGitUrl" } },
              ],
            },
          },
          {
            kind: "Field",
            name: { kind: "Name", value: "deploySettings" },
            selectionSet: {
              kind: "SelectionSet",
              selections: [{ kind: "Field", name: { kind: "Name", value: "healthPath" } }],
            },
          },
          {
            kind: "Field",
            name: { kind: "Name", value: "domains" },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "id" } },
                { kind: "Field", name: { kind: "Name", value: "host" } },
                { kind: "Field", name: { kind: "Name", value: "port" } },
                { kind: "Field", name: { kind: "Name", value: "https" } },
                { kind: "Field", name: { kind: "Name", value: "createdAt" } },
              ],
            },
          },
          {
            kind: "Field",
            name: { kind: "Name", value: "environmentVariables" },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "key" } },
                { kind: "Field", name: { kind: "Name", value: "value" } },
              ],
            },
          },
        ],
      },
    },
  ],
} as unknown as DocumentNode<RemoveDomainMutation, RemoveDomainMutationVariables>;
export const UpdateApplicationDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "mutation",
      name: { kind: "Name", value: "UpdateApplication" },
      variableDefinitions: [
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "id" } },
          type: { kind: "NonNullType", type: { kind: "NamedType", name: { kind: "Name", value: "ID" } } },
        },
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "input" } },
          type: {
            kind: "NonNullType",
            type: { kind: "NamedType", name: { kind: "Name", value: "UpdateApplicationInput" } },
          },
        },
      ],
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          {
            kind: "Field",
            name: { kind: "Name", value: "updateApplication" },
            arguments: [
              {
                kind: "Argument",
                name: { kind: "Name", value: "id" },
                value: { kind: "Variable", name: { kind: "Name", value: "id" } },
              },
              {
                kind: "Argument",
                name: { kind: "Name", value: "input" },
                value: { kind: "Variable", name: { kind: "Name", value: "input" } },
              },
            ],
            selectionSet: {
              kind: "SelectionSet",
              selections: [{ kind: "FragmentSpread", name: { kind: "Name", value: "ApplicationManageFields" } }],
            },
          },
        ],
      },
    },
    {
      kind: "FragmentDefinition",
      name: { kind: "Name", value: "ApplicationManageFields" },
      typeCondition: { kind: "NamedType", name: { kind: "Name", value: "Application" } },
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          { kind: "Field", name: { kind: "Name", value: "id" } },
          { kind: "Field", name: { kind: "Name", value: "name" } },
          { kind: "Field", name: { kind: "Name", value: "needsDeployment" } },
          { kind: "Field", name: { kind: "Name", value: "sourceType" } },
          { kind: "Field", name: { kind: "Name", value: "buildType" } },
          { kind: "Field", name: { kind: "Name", value: "port" } },
          {
            kind: "Field",
            name: { kind: "Name", value: "source" },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "type" } },
                { kind: "Field", name: { kind: "Name", value: "repo" } },
                { kind: "Field", name: { kind: "Name", value: "branch" } },
                { kind: "Field", name: { kind: "Name", value: "buildPath" } },
                { kind: "Field", name: { kind: "Name", value: "dockerImage" } },
                { kind: "Field", name: { kind: "Name", value: "customGitUrl" } },
              ],
            },
          },
          {
            kind: "Field",
            name: { kind: "Name", value: "deploySettings" },
            selectionSet: {
              kind: "SelectionSet",
              selections: [{ kind: "Field", name: { kind: "Name", value: "healthPath" } }],
            },
          },
          {
            kind: "Field",
            name: { kind: "Name", value: "domains" },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "id" } },
                { kind: "Field", name: { kind: "Name", value: "host" } },
                { kind: "Field", name: { kind: "Name", value: "port" } },
                { kind: "Field", name: { kind: "Name", value: "https" } },
                { kind: "Field", name: { kind: "Name", value: "createdAt" } },
              ],
            },
          },
          {
            kind: "Field",
            name: { kind: "Name", value: "environmentVariables" },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "key" } },
                { kind: "Field", name: { kind: "Name", value: "value" } },
              ],
            },
          },
        ],
      },
    },
  ],
} as unknown as DocumentNode<UpdateApplicationMutation, UpdateApplicationMutationVariables>;
export const UpdateDomainDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "mutation",
      name: { kind: "Name", value: "UpdateDomain" },
      variableDefinitions: [
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "id" } },
          type: { kind: "NonNullType", type: { kind: "NamedType", name: { kind: "Name", value: "ID" } } },
        },
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "input" } },
          type: {
            kind: "NonNullType",
            type: { kind: "NamedType", name: { kind: "Name", value: "UpdateDomainInput" } },
          },
        },
      ],
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          {
            kind: "Field",
            name: { kind: "Name", value: "updateDomain" },
            arguments: [
              {
                kind: "Argument",
                name: { kind: "Name", value: "id" },
                value: { kind: "Variable", name: { kind: "Name", value: "id" } },
              },
              {
                kind: "Argument",
                name: { kind: "Name", value: "input" },
                value: { kind: "Variable", name: { kind: "Name", value: "input" } },
              },
            ],
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "id" } },
                { kind: "Field", name: { kind: "Name", value: "port" } },
                { kind: "Field", name: { kind: "Name", value: "https" } },
                {
                  kind: "Field",
                  name: { kind: "Name", value: "application" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [{ kind: "FragmentSpread", name: { kind: "Name", value: "ApplicationManageFields" } }],
                  },
                },
              ],
            },
          },
        ],
      },
    },
    {
      kind: "FragmentDefinition",
      name: { kind: "Name", value: "ApplicationManageFields" },
      typeCondition: { kind: "NamedType", name: { kind: "Name", value: "Application" } },
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          { kind: "Field", name: { kind: "Name", value: "id" } },
          { kind: "Field", name: { kind: "Name", value: "name" } },
          { kind: "Field", name: { kind: "Name", value: "needsDeployment" } },
          { kind: "Field", name: { kind: "Name", value: "sourceType" } },
          { kind: "Field", name: { kind: "Name", value: "buildType" } },
          { kind: "Field", name: { kind: "Name", value: "port" } },
          {
            kind: "Field",
            name: { kind: "Name", value: "source" },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "type" } },
                { kind: "Field", name: { kind: "Name", value: "repo" } },
                { kind: "Field", name: { kind: "Name", value: "branch" } },
                { kind: "Field", name: { kind: "Name", value: "buildPath" } },
                { kind: "Field", name: { kind: "Name", value: "dockerImage" } },
                { kind: "Field", name: { kind: "Name", value: "customGitUrl" } },
              ],
            },
          },
          {
            kind: "Field",
            name: { kind: "Name", value: "deploySettings" },
            selectionSet: {
              kind: "SelectionSet",
              selections: [{ kind: "Field", name: { kind: "Name", value: "healthPath" } }],
            },
          },
          {
            kind: "Field",
            name: { kind: "Name", value: "domains" },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "id" } },
                { kind: "Field", name: { kind: "Name", value: "host" } },
                { kind: "Field", name: { kind: "Name", value: "port" } },
                { kind: "Field", name: { kind: "Name", value: "https" } },
                { kind: "Field", name: { kind: "Name", value: "createdAt" } },
              ],
            },
          },
          {
            kind: "Field",
            name: { kind: "Name", value: "environmentVariables" },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "key" } },
                { kind: "Field", name: { kind: "Name", value: "value" } },
              ],
            },
          },
        ],
      },
    },
  ],
} as unknown as DocumentNode<UpdateDomainMutation, UpdateDomainMutationVariables>;
export const ApplicationTreeDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "query",
      name: { kind: "Name", value: "ApplicationTree" },
      variableDefinitions: [
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "organizationId" } },
          type: { kind: "NonNullType", type: { kind: "NamedType", name: { kind: "Name", value: "ID" } } },
        },
      ],
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          {
            kind: "Field",
            name: { kind: "Name", value: "organization" },
            arguments: [
              {
                kind: "Argument",
                name: { kind: "Name", value: "id" },
                value: { kind: "Variable", name: { kind: "Name", value: "organizationId" } },
              },
            ],
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "id" } },
                { kind: "Field", name: { kind: "Name", value: "name" } },
                { kind: "Field", name: { kind: "Name", value: "viewerRole" } },
                {
                  kind: "Field",
                  name: { kind: "Name", value: "projects" },
                  arguments: [
                    {
                      kind: "Argument",
                      name: { kind: "Name", value: "first" },
                      value: { kind: "IntValue", value: "100" },
                    },
                  ],
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [
                      { kind: "Field", name: { kind: "Name", value: "totalCount" } },
                      {
                        kind: "Field",
                        name: { kind: "Name", value: "edges" },
                        selectionSet: {
                          kind: "SelectionSet",
                          selections: [
                            {
                              kind: "Field",
                              name: { kind: "Name", value: "node" },
                              selectionSet: {
                                kind: "SelectionSet",
                                selections: [
                                  { kind: "Field", name: { kind: "Name", value: "id" } },
                                  { kind: "Field", name: { kind: "Name", value: "name" } },
                                  {
                                    kind: "Field",
                                    name: { kind: "Name", value: "environments" },
                                    selectionSet: {
                                      kind: "SelectionSet",
                                      selections: [
                                        { kind: "Field", name: { kind: "Name", value: "id" } },
                                        { kind: "Field", name: { kind: "Name", value: "name" } },
                                        {
                                          kind: "Field",
                                          name: { kind: "Name", value: "applications" },
                                          selectionSet: {
                                            kind: "SelectionSet",
                                            selections: [
                                              { kind: "Field", name: { kind: "Name", value: "id" } },
                                              { kind: "Field", name: { kind: "Name", value: "name" } },
                                              { kind: "Field", name: { kind: "Name", value: "appName" } },
                                              { kind: "Field", name: { kind: "Name", value: "applicationStatus" } },
                                              { kind: "Field", name: { kind: "Name", value: "sourceType" } },
                                            ],
                                          },
                                        },
                                      ],
                                    },
                                  },
                                ],
                              },
                            },
                          ],
                        },
                      },
                    ],
                  },
                },
              ],
            },
          },
        ],
      },
    },
  ],
} as unknown as DocumentNode<ApplicationTreeQuery, ApplicationTreeQueryVariables>;
export const ApplicationDeploySettingsDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "query",
      name: { kind: "Name", value: "ApplicationDeploySettings" },
      variableDefinitions: [
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "id" } },
          type: { kind: "NonNullType", type: { kind: "NamedType", name: { kind: "Name", value: "ID" } } },
        },
      ],
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          {
            kind: "Field",
            name: { kind: "Name", value: "application" },
            arguments: [
              {
                kind: "Argument",
                name: { kind: "Name", value: "id" },
                value: { kind: "Variable", name: { kind: "Name", value: "id" } },
              },
            ],
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "id" } },
                { kind: "Field", name: { kind: "Name", value: "name" } },
                { kind: "Field", name: { kind: "Name", value: "appName" } },
                { kind: "Field", name: { kind: "Name", value: "sourceType" } },
                {
                  kind: "Field",
                  name: { kind: "Name", value: "source" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [
                      { kind: "Field", name: { kind: "Name", value: "branch" } },
                      { kind: "Field", name: { kind: "Name", value: "repo" } },
                      { kind: "Field", name: { kind: "Name", value: "dockerImage" } },
                    ],
                  },
                },
                {
                  kind: "Field",
                  name: { kind: "Name", value: "project" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [
                      { kind: "Field", name: { kind: "Name", value: "id" } },
                      { kind: "Field", name: { kind: "Name", value: "name" } },
                    ],
                  },
                },
                {
                  kind: "Field",
                  name: { kind: "Name", value: "environment" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [
                      { kind: "Field", name: { kind: "Name", value: "id" } },
                      { kind: "Field", name: { kind: "Name", value: "name" } },
                    ],
                  },
                },
                { kind: "Field", name: { kind: "Name", value: "deployWebhookUrl" } },
                {
                  kind: "Field",
                  name: { kind: "Name", value: "deploySettings" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [{ kind: "FragmentSpread", name: { kind: "Name", value: "DeploySettingsFields" } }],
                  },
                },
              ],
            },
          },
        ],
      },
    },
    {
      kind: "FragmentDefinition",
      name: { kind: "Name", value: "DeploySettingsFields" },
      typeCondition: { kind: "NamedType", name: { kind: "Name", value: "DeploySettings" } },
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          { kind: "Field", name: { kind: "Name", value: "autoDeploy" } },
          { kind: "Field", name: { kind: "Name", value: "branchFilter" } },
          { kind: "Field", name: { kind: "Name", value: "watchPaths" } },
          { kind: "Field", name: { kind: "Name", value: "requireSignature" } },
          { kind: "Field", name: { kind: "Name", value: "hasWebhookSecret" } },
          { kind: "Field", name: { kind: "Name", value: "healthPath" } },
        ],
      },
    },
  ],
} as unknown as DocumentNode<ApplicationDeploySettingsQuery, ApplicationDeploySettingsQueryVariables>;
export const RegenerateDeployTokenDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "mutation",
      name: { kind: "Name", value: "RegenerateDeployToken" },
      variableDefinitions: [
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "applicationId" } },
          type: { kind: "NonNullType", type: { kind: "NamedType", name: { kind: "Name", value: "ID" } } },
        },
      ],
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          {
            kind: "Field",
            name: { kind: "Name", value: "regenerateDeployToken" },
            arguments: [
              {
                kind: "Argument",
                name: { kind: "Name", value: "applicationId" },
                value: { kind: "Variable", name: { kind: "Name", value: "applicationId" } },
              },
            ],
          },
        ],
      },
    },
  ],
} as unknown as DocumentNode<RegenerateDeployTokenMutation, RegenerateDeployTokenMutationVariables>;
export const RegenerateDeployWebhookSecretDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "mutation",
      name: { kind: "Name", value: "RegenerateDeployWebhookSecret" },
      variableDefinitions: [
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "applicationId" } },
          type: { kind: "NonNullType", type: { kind: "NamedType", name: { kind: "Name", value: "ID" } } },
        },
      ],
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          {
            kind: "Field",
            name: { kind: "Name", value: "regenerateDeployWebhookSecret" },
            arguments: [
              {
                kind: "Argument",
                name: { kind: "Name", value: "applicationId" },
                value: { kind: "Variable", name: { kind: "Name", value: "applicationId" } },
              },
            ],
          },
        ],
      },
    },
  ],
} as unknown as DocumentNode<RegenerateDeployWebhookSecretMutation, RegenerateDeployWebhookSecretMutationVariables>;
export const UpdateDeploySettingsDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "mutation",
      name: { kind: "Name", value: "UpdateDeploySettings" },
      variableDefinitions: [
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "applicationId" } },
          type: { kind: "NonNullType", type: { kind: "NamedType", name: { kind: "Name", value: "ID" } } },
        },
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "input" } },
          type: {
            kind: "NonNullType",
            type: { kind: "NamedType", name: { kind: "Name", value: "DeploySettingsInput" } },
          },
        },
      ],
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          {
            kind: "Field",
            name: { kind: "Name", value: "updateDeploySettings" },
            arguments: [
              {
                kind: "Argument",
                name: { kind: "Name", value: "applicationId" },
                value: { kind: "Variable", name: { kind: "Name", value: "applicationId" } },
              },
              {
                kind: "Argument",
                name: { kind: "Name", value: "input" },
                value: { kind: "Variable", name: { kind: "Name", value: "input" } },
              },
            ],
            selectionSet: {
              kind: "SelectionSet",
              selections: [{ kind: "FragmentSpread", name: { kind: "Name", value: "DeploySettingsFields" } }],
            },
          },
        ],
      },
    },
    {
      kind: "FragmentDefinition",
      name: { kind: "Name", value: "DeploySettingsFields" },
      typeCondition: { kind: "NamedType", name: { kind: "Name", value: "DeploySettings" } },
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          { kind: "Field", name: { kind: "Name", value: "autoDeploy" } },
          { kind: "Field", name: { kind: "Name", value: "branchFilter" } },
          { kind: "Field", name: { kind: "Name", value: "watchPaths" } },
          { kind: "Field", name: { kind: "Name", value: "requireSignature" } },
          { kind: "Field", name: { kind: "Name", value: "hasWebhookSecret" } },
          { kind: "Field", name: { kind: "Name", value: "healthPath" } },
        ],
      },
    },
  ],
} as unknown as DocumentNode<UpdateDeploySettingsMutation, UpdateDeploySettingsMutationVariables>;
export const ApplicationDeploymentsDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "query",
      name: { kind: "Name", value: "ApplicationDeployments" },
      variableDefinitions: [
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "id" } },
          type: { kind: "NonNullType", type: { kind: "NamedType", name: { kind: "Name", value: "ID" } } },
        },
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "organizationId" } },
          type: { kind: "NonNullType", type: { kind: "NamedType", name: { kind: "Name", value: "ID" } } },
        },
      ],
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          {
            kind: "Field",
            name: { kind: "Name", value: "organization" },
            arguments: [
              {
                kind: "Argument",
                name: { kind: "Name", value: "id" },
                value: { kind: "Variable", name: { kind: "Name", value: "organizationId" } },
              },
            ],
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "id" } },
                { kind: "Field", name: { kind: "Name", value: "viewerRole" } },
              ],
            },
          },
          {
            kind: "Field",
            name: { kind: "Name", value: "application" },
            arguments: [
              {
                kind: "Argument",
                name: { kind: "Name", value: "id" },
                value: { kind: "Variable", name: { kind: "Name", value: "id" } },
              },
            ],
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "id" } },
                { kind: "Field", name: { kind: "Name", value: "name" } },
                { kind: "Field", name: { kind: "Name", value: "appName" } },
                { kind: "Field", name: { kind: "Name", value: "applicationStatus" } },
                { kind: "Field", name: { kind: "Name", value: "health" } },
                { kind: "Field", name: { kind: "Name", value: "healthCheckedAt" } },
                { kind: "Field", name: { kind: "Name", value: "sourceType" } },
                {
                  kind: "Field",
                  name: { kind: "Name", value: "source" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [
                      { kind: "Field", name: { kind: "Name", value: "branch" } },
                      { kind: "Field", name: { kind: "Name", value: "repo" } },
                      { kind: "Field", name: { kind: "Name", value: "dockerImage" } },
                    ],
                  },
                },
                {
                  kind: "Field",
                  name: { kind: "Name", value: "project" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [
                      { kind: "Field", name: { kind: "Name", value: "id" } },
                      { kind: "Field", name: { kind: "Name", value: "name" } },
                    ],
                  },
                },
                {
                  kind: "Field",
                  name: { kind: "Name", value: "environment" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [
                      { kind: "Field", name: { kind: "Name", value: "id" } },
                      { kind: "Field", name: { kind: "Name", value: "name" } },
                    ],
                  },
                },
                {
                  kind: "Field",
                  name: { kind: "Name", value: "domains" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [
                      { kind: "Field", name: { kind: "Name", value: "id" } },
                      { kind: "Field", name: { kind: "Name", value: "host" } },
                      { kind: "Field", name: { kind: "Name", value: "https" } },
                    ],
                  },
                },
                {
                  kind: "Field",
                  name: { kind: "Name", value: "deployments" },
                  arguments: [
                    {
                      kind: "Argument",
                      name: { kind: "Name", value: "first" },
                      value: { kind: "IntValue", value: "50" },
                    },
                  ],
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [{ kind: "FragmentSpread", name: { kind: "Name", value: "DeploymentRow" } }],
                  },
                },
              ],
            },
          },
        ],
      },
    },
    {
      kind: "FragmentDefinition",
      name: { kind: "Name", value: "DeploymentRow" },
      typeCondition: { kind: "NamedType", name: { kind: "Name", value: "Deployment" } },
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          { kind: "Field", name: { kind: "Name", value: "id" } },
          { kind: "Field", name: { kind: "Name", value: "status" } },
          { kind: "Field", name: { kind: "Name", value: "title" } },
          { kind: "Field", name: { kind: "Name", value: "description" } },
          { kind: "Field", name: { kind: "Name", value: "trigger" } },
          { kind: "Field", name: { kind: "Name", value: "commitSha" } },
          { kind: "Field", name: { kind: "Name", value: "errorMessage" } },
          { kind: "Field", name: { kind: "Name", value: "createdAt" } },
          { kind: "Field", name: { kind: "Name", value: "startedAt" } },
          { kind: "Field", name: { kind: "Name", value: "finishedAt" } },
        ],
      },
    },
  ],
} as unknown as DocumentNode<ApplicationDeploymentsQuery, ApplicationDeploymentsQueryVariables>;
export const DeploymentLogsDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "query",
      name: { kind: "Name", value: "DeploymentLogs" },
      variableDefinitions: [
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "id" } },
          type: { kind: "NonNullType", type: { kind: "NamedType", name: { kind: "Name", value: "ID" } } },
        },
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "first" } },
          type: { kind: "NonNullType", type: { kind: "NamedType", name: { kind: "Name", value: "Int" } } },
        },
      ],
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          {
            kind: "Field",
            name: { kind: "Name", value: "application" },
            arguments: [
              {
                kind: "Argument",
                name: { kind: "Name", value: "id" },
                value: { kind: "Variable", name: { kind: "Name", value: "id" } },
              },
            ],
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "id" } },
                {
                  kind: "Field",
                  name: { kind: "Name", value: "deployments" },
                  arguments: [
                    {
                      kind: "Argument",
                      name: { kind: "Name", value: "first" },
                      value: { kind: "Variable", name: { kind: "Name", value: "first" } },
                    },
                  ],
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [
                      { kind: "Field", name: { kind: "Name", value: "id" } },
                      {
                        kind: "Field",
                        name: { kind: "Name", value: "logs" },
                        selectionSet: {
                          kind: "SelectionSet",
                          selections: [
                            { kind: "Field", name: { kind: "Name", value: "at" } },
                            { kind: "Field", name: { kind: "Name", value: "level" } },
                            { kind: "Field", name: { kind: "Name", value: "text" } },
                          ],
                        },
                      },
                    ],
                  },
                },
              ],
            },
          },
        ],
      },
    },
  ],
} as unknown as DocumentNode<DeploymentLogsQuery, DeploymentLogsQueryVariables>;
export const DeploymentUpdatedDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "subscription",
      name: { kind: "Name", value: "DeploymentUpdated" },
      variableDefinitions: [
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "applicationId" } },
          type: { kind: "NonNullType", type: { kind: "NamedType", name: { kind: "Name", value: "ID" } } },
        },
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "after" } },
          type: { kind: "NamedType", name: { kind: "Name", value: "String" } },
        },
      ],
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          {
            kind: "Field",
            name: { kind: "Name", value: "deploymentUpdated" },
            arguments: [
              {
                kind: "Argument",
                name: { kind: "Name", value: "applicationId" },
                value: { kind: "Variable", name: { kind: "Name", value: "applicationId" } },
              },
              {
                kind: "Argument",
                name: { kind: "Name", value: "after" },
                value: { kind: "Variable", name: { kind: "Name", value: "after" } },
              },
            ],
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "deploymentId" } },
                { kind: "Field", name: { kind: "Name", value: "status" } },
                { kind: "Field", name: { kind: "Name", value: "cursor" } },
                {
                  kind: "Field",
                  name: { kind: "Name", value: "logLine" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [
                      { kind: "Field", name: { kind: "Name", value: "at" } },
                      { kind: "Field", name: { kind: "Name", value: "level" } },
                      { kind: "Field", name: { kind: "Name", value: "text" } },
                    ],
                  },
                },
                {
                  kind: "Field",
                  name: { kind: "Name", value: "deployment" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [{ kind: "FragmentSpread", name: { kind: "Name", value: "DeploymentRow" } }],
                  },
                },
              ],
            },
          },
        ],
      },
    },
    {
      kind: "FragmentDefinition",
      name: { kind: "Name", value: "DeploymentRow" },
      typeCondition: { kind: "NamedType", name: { kind: "Name", value: "Deployment" } },
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          { kind: "Field", name: { kind: "Name", value: "id" } },
          { kind: "Field", name: { kind: "Name", value: "status" } },
          { kind: "Field", name: { kind: "Name", value: "title" } },
          { kind: "Field", name: { kind: "Name", value: "description" } },
          { kind: "Field", name: { kind: "Name", value: "trigger" } },
          { kind: "Field", name: { kind: "Name", value: "commitSha" } },
          { kind: "Field", name: { kind: "Name", value: "errorMessage" } },
          { kind: "Field", name: { kind: "Name", value: "createdAt" } },
          { kind: "Field", name: { kind: "Name", value: "startedAt" } },
          { kind: "Field", name: { kind: "Name", value: "finishedAt" } },
        ],
      },
    },
  ],
} as unknown as DocumentNode<DeploymentUpdatedSubscription, DeploymentUpdatedSubscriptionVariables>;
export const DeployApplicationDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "mutation",
      name: { kind: "Name", value: "DeployApplication" },
      variableDefinitions: [
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "applicationId" } },
          type: { kind: "NonNullType", type: { kind: "NamedType", name: { kind: "Name", value: "ID" } } },
        },
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "title" } },
          type: { kind: "NamedType", name: { kind: "Name", value: "String" } },
        },
      ],
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          {
            kind: "Field",
            name: { kind: "Name", value: "deployApplication" },
            arguments: [
              {
                kind: "Argument",
                name: { kind: "Name", value: "applicationId" },
                value: { kind: "Variable", name: { kind: "Name", value: "applicationId" } },
              },
              {
                kind: "Argument",
                name: { kind: "Name", value: "title" },
                value: { kind: "Variable", name: { kind: "Name", value: "title" } },
              },
            ],
            selectionSet: {
              kind: "SelectionSet",
              selections: [{ kind: "FragmentSpread", name: { kind: "Name", value: "DeploymentRow" } }],
            },
          },
        ],
      },
    },
    {
      kind: "FragmentDefinition",
      name: { kind: "Name", value: "DeploymentRow" },
      typeCondition: { kind: "NamedType", name: { kind: "Name", value: "Deployment" } },
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          { kind: "Field", name: { kind: "Name", value: "id" } },
          { kind: "Field", name: { kind: "Name", value: "status" } },
          { kind: "Field", name: { kind: "Name", value: "title" } },
          { kind: "Field", name: { kind: "Name", value: "description" } },
          { kind: "Field", name: { kind: "Name", value: "trigger" } },
          { kind: "Field", name: { kind: "Name", value: "commitSha" } },
          { kind: "Field", name: { kind: "Name", value: "errorMessage" } },
          { kind: "Field", name: { kind: "Name", value: "createdAt" } },
          { kind: "Field", name: { kind: "Name", value: "startedAt" } },
          { kind: "Field", name: { kind: "Name", value: "finishedAt" } },
        ],
      },
    },
  ],
} as unknown as DocumentNode<DeployApplicationMutation, DeployApplicationMutationVariables>;
export const CancelDeploymentDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "mutation",
      name: { kind: "Name", value: "CancelDeployment" },
      variableDefinitions: [
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "id" } },
          type: { kind: "NonNullType", type: { kind: "NamedType", name: { kind: "Name", value: "ID" } } },
        },
      ],
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          {
            kind: "Field",
            name: { kind: "Name", value: "cancelDeployment" },
            arguments: [
              {
                kind: "Argument",
                name: { kind: "Name", value: "id" },
                value: { kind: "Variable", name: { kind: "Name", value: "id" } },
              },
            ],
            selectionSet: {
              kind: "SelectionSet",
              selections: [{ kind: "FragmentSpread", name: { kind: "Name", value: "DeploymentRow" } }],
            },
          },
        ],
      },
    },
    {
      kind: "FragmentDefinition",
      name: { kind: "Name", value: "DeploymentRow" },
      typeCondition: { kind: "NamedType", name: { kind: "Name", value: "Deployment" } },
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          { kind: "Field", name: { kind: "Name", value: "id" } },
          { kind: "Field", name: { kind: "Name", value: "status" } },
          { kind: "Field", name: { kind: "Name", value: "title" } },
          { kind: "Field", name: { kind: "Name", value: "description" } },
          { kind: "Field", name: { kind: "Name", value: "trigger" } },
          { kind: "Field", name: { kind: "Name", value: "commitSha" } },
          { kind: "Field", name: { kind: "Name", value: "errorMessage" } },
          { kind: "Field", name: { kind: "Name", value: "createdAt" } },
          { kind: "Field", name: { kind: "Name", value: "startedAt" } },
          { kind: "Field", name: { kind: "Name", value: "finishedAt" } },
        ],
      },
    },
  ],
} as unknown as DocumentNode<CancelDeploymentMutation, CancelDeploymentMutationVariables>;
export const RedeployDeploymentDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "mutation",
      name: { kind: "Name", value: "RedeployDeployment" },
      variableDefinitions: [
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "id" } },
          type: { kind: "NonNullType", type: { kind: "NamedType", name: { kind: "Name", value: "ID" } } },
        },
      ],
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          {
            kind: "Field",
            name: { kind: "Name", value: "redeployDeployment" },
            arguments: [
              {
                kind: "Argument",
                name: { kind: "Name", value: "id" },
                value: { kind: "Variable", name: { kind: "Name", value: "id" } },
              },
            ],
            selectionSet: {
              kind: "SelectionSet",
              selections: [{ kind: "FragmentSpread", name: { kind: "Name", value: "DeploymentRow" } }],
            },
          },
        ],
      },
    },
    {
      kind: "FragmentDefinition",
      name: { kind: "Name", value: "DeploymentRow" },
      typeCondition: { kind: "NamedType", name: { kind: "Name", value: "Deployment" } },
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          { kind: "Field", name: { kind: "Name", value: "id" } },
          { kind: "Field", name: { kind: "Name", value: "status" } },
          { kind: "Field", name: { kind: "Name", value: "title" } },
          { kind: "Field", name: { kind: "Name", value: "description" } },
          { kind: "Field", name: { kind: "Name", value: "trigger" } },
          { kind: "Field", name: { kind: "Name", value: "commitSha" } },
          { kind: "Field", name: { kind: "Name", value: "errorMessage" } },
          { kind: "Field", name: { kind: "Name", value: "createdAt" } },
          { kind: "Field", name: { kind: "Name", value: "startedAt" } },
          { kind: "Field", name: { kind: "Name", value: "finishedAt" } },
        ],
      },
    },
  ],
} as unknown as DocumentNode<RedeployDeploymentMutation, RedeployDeploymentMutationVariables>;
export const ApplicationOrganizationDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "query",
      name: { kind: "Name", value: "ApplicationOrganization" },
      variableDefinitions: [
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "id" } },
          type: { kind: "NonNullType", type: { kind: "NamedType", name: { kind: "Name", value: "ID" } } },
        },
      ],
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          {
            kind: "Field",
            name: { kind: "Name", value: "application" },
            arguments: [
              {
                kind: "Argument",
                name: { kind: "Name", value: "id" },
                value: { kind: "Variable", name: { kind: "Name", value: "id" } },
              },
            ],
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "id" } },
                {
                  kind: "Field",
                  name: { kind: "Name", value: "project" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [
                      { kind: "Field", name: { kind: "Name", value: "id" } },
                      {
                        kind: "Field",
                        name: { kind: "Name", value: "organization" },
                        selectionSet: {
                          kind: "SelectionSet",
                          selections: [
                            { kind: "Field", name: { kind: "Name", value: "id" } },
                            { kind: "Field", name: { kind: "Name", value: "name" } },
                          ],
                        },
                      },
                    ],
                  },
                },
              ],
            },
          },
        ],
      },
    },
  ],
} as unknown as DocumentNode<ApplicationOrganizationQuery, ApplicationOrganizationQueryVariables>;
export const DocsThemeDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "query",
      name: { kind: "Name", value: "DocsTheme" },
      variableDefinitions: [
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "organizationId" } },
          type: { kind: "NonNullType", type: { kind: "NamedType", name: { kind: "Name", value: "ID" } } },
        },
      ],
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          {
            kind: "Field",
            name: { kind: "Name", value: "docsTheme" },
            arguments: [
              {
                kind: "Argument",
                name: { kind: "Name", value: "organizationId" },
                value: { kind: "Variable", name: { kind: "Name", value: "organizationId" } },
              },
            ],
            selectionSet: {
              kind: "SelectionSet",
              selections: [{ kind: "FragmentSpread", name: { kind: "Name", value: "DocsThemeFields" } }],
            },
          },
        ],
      },
    },
    {
      kind: "FragmentDefinition",
      name: { kind: "Name", value: "DocsThemeFields" },
      typeCondition: { kind: "NamedType", name: { kind: "Name", value: "DocsTheme" } },
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          { kind: "Field", name: { kind: "Name", value: "siteName" } },
          { kind: "Field", name: { kind: "Name", value: "logoUrl" } },
          { kind: "Field", name: { kind: "Name", value: "faviconUrl" } },
          { kind: "Field", name: { kind: "Name", value: "colorsLight" } },
          { kind: "Field", name: { kind: "Name", value: "colorsDark" } },
          { kind: "Field", name: { kind: "Name", value: "footerText" } },
          { kind: "Field", name: { kind: "Name", value: "customCss" } },
          { kind: "Field", name: { kind: "Name", value: "docsHostname" } },
          { kind: "Field", name: { kind: "Name", value: "themeUrl" } },
          { kind: "Field", name: { kind: "Name", value: "loaderSnippet" } },
          { kind: "Field", name: { kind: "Name", value: "updatedAt" } },
          {
            kind: "Field",
            name: { kind: "Name", value: "docsRegistration" },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "hostname" } },
                { kind: "Field", name: { kind: "Name", value: "syncedAt" } },
                { kind: "Field", name: { kind: "Name", value: "dns" } },
                { kind: "Field", name: { kind: "Name", value: "cnameTarget" } },
                { kind: "Field", name: { kind: "Name", value: "conflict" } },
              ],
            },
          },
        ],
      },
    },
  ],
} as unknown as DocumentNode<DocsThemeQuery, DocsThemeQueryVariables>;
export const SetDocsThemeDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "mutation",
      name: { kind: "Name", value: "SetDocsTheme" },
      variableDefinitions: [
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "organizationId" } },
          type: { kind: "NonNullType", type: { kind: "NamedType", name: { kind: "Name", value: "ID" } } },
        },
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "input" } },
          type: { kind: "NonNullType", type: { kind: "NamedType", name: { kind: "Name", value: "DocsThemeInput" } } },
        },
      ],
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          {
            kind: "Field",
            name: { kind: "Name", value: "setDocsTheme" },
            arguments: [
              {
                kind: "Argument",
                name: { kind: "Name", value: "organizationId" },
                value: { kind: "Variable", name: { kind: "Name", value: "organizationId" } },
              },
              {
                kind: "Argument",
                name: { kind: "Name", value: "input" },
                value: { kind: "Variable", name: { kind: "Name", value: "input" } },
              },
            ],
            selectionSet: {
              kind: "SelectionSet",
              selections: [{ kind: "FragmentSpread", name: { kind: "Name", value: "DocsThemeFields" } }],
            },
          },
        ],
      },
    },
    {
      kind: "FragmentDefinition",
      name: { kind: "Name", value: "DocsThemeFields" },
      typeCondition: { kind: "NamedType", name: { kind: "Name", value: "DocsTheme" } },
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          { kind: "Field", name: { kind: "Name", value: "siteName" } },
          { kind: "Field", name: { kind: "Name", value: "logoUrl" } },
          { kind: "Field", name: { kind: "Name", value: "faviconUrl" } },
          { kind: "Field", name: { kind: "Name", value: "colorsLight" } },
          { kind: "Field", name: { kind: "Name", value: "colorsDark" } },
          { kind: "Field", name: { kind: "Name", value: "footerText" } },
          { kind: "Field", name: { kind: "Name", value: "customCss" } },
          { kind: "Field", name: { kind: "Name", value: "docsHostname" } },
          { kind: "Field", name: { kind: "Name", value: "themeUrl" } },
          { kind: "Field", name: { kind: "Name", value: "loaderSnippet" } },
          { kind: "Field", name: { kind: "Name", value: "updatedAt" } },
          {
            kind: "Field",
            name: { kind: "Name", value: "docsRegistration" },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "hostname" } },
                { kind: "Field", name: { kind: "Name", value: "syncedAt" } },
                { kind: "Field", name: { kind: "Name", value: "dns" } },
                { kind: "Field", name: { kind: "Name", value: "cnameTarget" } },
                { kind: "Field", name: { kind: "Name", value: "conflict" } },
              ],
            },
          },
        ],
      },
    },
  ],
} as unknown as DocumentNode<SetDocsThemeMutation, SetDocsThemeMutationVariables>;
export const ProjectPaymentsDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "query",
      name: { kind: "Name", value: "ProjectPayments" },
      variableDefinitions: [
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "projectId" } },
          type: { kind: "NonNullType", type: { kind: "NamedType", name: { kind: "Name", value: "ID" } } },
        },
      ],
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          {
            kind: "Field",
            name: { kind: "Name", value: "project" },
            arguments: [
              {
                kind: "Argument",
                name: { kind: "Name", value: "id" },
                value: { kind: "Variable", name: { kind: "Name", value: "projectId" } },
              },
            ],
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "id" } },
                { kind: "Field", name: { kind: "Name", value: "name" } },
                {
                  kind: "Field",
                  name: { kind: "Name", value: "paymentGatewayServices" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [{ kind: "FragmentSpread", name: { kind: "Name", value: "PaymentServiceRow" } }],
                  },
                },
              ],
            },
          },
        ],
      },
    },
    {
      kind: "FragmentDefinition",
      name: { kind: "Name", value: "PaymentServiceRow" },
      typeCondition: { kind: "NamedType", name: { kind: "Name", value: "PaymentGatewayService" } },
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          { kind: "Field", name: { kind: "Name", value: "id" } },
          { kind: "Field", name: { kind: "Name", value: "name" } },
          { kind: "Field", name: { kind: "Name", value: "webhookUrl" } },
          { kind: "Field", name: { kind: "Name", value: "createdAt" } },
          { kind: "Field", name: { kind: "Name", value: "merchantCode" } },
          { kind: "Field", name: { kind: "Name", value: "merchantStatus" } },
          { kind: "Field", name: { kind: "Name", value: "checkoutUrl" } },
          {
            kind: "Field",
            name: { kind: "Name", value: "paymentMethods" },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "id" } },
                { kind: "Field", name: { kind: "Name", value: "label" } },
                { kind: "Field", name: { kind: "Name", value: "kind" } },
                { kind: "Field", name: { kind: "Name", value: "enabled" } },
              ],
            },
          },
        ],
      },
    },
  ],
} as unknown as DocumentNode<ProjectPaymentsQuery, ProjectPaymentsQueryVariables>;
export const PaymentRelaysDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "query",
      name: { kind: "Name", value: "PaymentRelays" },
      variableDefinitions: [
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "projectId" } },
          type: { kind: "NonNullType", type: { kind: "NamedType", name: { kind: "Name", value: "ID" } } },
        },
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "first" } },
          type: { kind: "NonNullType", type: { kind: "NamedType", name: { kind: "Name", value: "Int" } } },
        },
      ],
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          {
            kind: "Field",
            name: { kind: "Name", value: "project" },
            arguments: [
              {
                kind: "Argument",
                name: { kind: "Name", value: "id" },
                value: { kind: "Variable", name: { kind: "Name", value: "projectId" } },
              },
            ],
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "id" } },
                {
                  kind: "Field",
                  name: { kind: "Name", value: "paymentGatewayServices" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [
                      { kind: "Field", name: { kind: "Name", value: "id" } },
                      {
                        kind: "Field",
                        name: { kind: "Name", value: "relays" },
                        arguments: [
                          {
                            kind: "Argument",
                            name: { kind: "Name", value: "first" },
                            value: { kind: "Variable", name: { kind: "Name", value: "first" } },
                          },
                        ],
                        selectionSet: {
                          kind: "SelectionSet",
                          selections: [{ kind: "FragmentSpread", name: { kind: "Name", value: "PaymentRelayRow" } }],
                        },
                      },
                    ],
                  },
                },
              ],
            },
          },
        ],
      },
    },
    {
      kind: "FragmentDefinition",
      name: { kind: "Name", value: "PaymentRelayRow" },
      typeCondition: { kind: "NamedType", name: { kind: "Name", value: "PaymentRelay" } },
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          { kind: "Field", name: { kind: "Name", value: "id" } },
          { kind: "Field", name: { kind: "Name", value: "eventType" } },
          { kind: "Field", name: { kind: "Name", value: "knownEvent" } },
          { kind: "Field", name: { kind: "Name", value: "externalReference" } },
          { kind: "Field", name: { kind: "Name", value: "targetUrl" } },
          { kind: "Field", name: { kind: "Name", value: "outcome" } },
          { kind: "Field", name: { kind: "Name", value: "statusCode" } },
          { kind: "Field", name: { kind: "Name", value: "error" } },
          { kind: "Field", name: { kind: "Name", value: "durationMs" } },
          { kind: "Field", name: { kind: "Name", value: "createdAt" } },
        ],
      },
    },
  ],
} as unknown as DocumentNode<PaymentRelaysQuery, PaymentRelaysQueryVariables>;
export const PaymentSigningKeysDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "query",
      name: { kind: "Name", value: "PaymentSigningKeys" },
      variableDefinitions: [
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "projectId" } },
          type: { kind: "NonNullType", type: { kind: "NamedType", name: { kind: "Name", value: "ID" } } },
        },
      ],
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          {
            kind: "Field",
            name: { kind: "Name", value: "project" },
            arguments: [
              {
                kind: "Argument",
                name: { kind: "Name", value: "id" },
                value: { kind: "Variable", name: { kind: "Name", value: "projectId" } },
              },
            ],
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "id" } },
                {
                  kind: "Field",
                  name: { kind: "Name", value: "paymentGatewayServices" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [
                      { kind: "Field", name: { kind: "Name", value: "id" } },
                      { kind: "Field", name: { kind: "Name", value: "signingKey" } },
                    ],
                  },
                },
              ],
            },
          },
        ],
      },
    },
  ],
} as unknown as DocumentNode<PaymentSigningKeysQuery, PaymentSigningKeysQueryVariables>;
export const CreatePaymentServiceDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "mutation",
      name: { kind: "Name", value: "CreatePaymentService" },
      variableDefinitions: [
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "projectId" } },
          type: { kind: "NonNullType", type: { kind: "NamedType", name: { kind: "Name", value: "ID" } } },
        },
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "name" } },
          type: { kind: "NonNullType", type: { kind: "NamedType", name: { kind: "Name", value: "String" } } },
        },
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "webhookUrl" } },
          type: { kind: "NamedType", name: { kind: "Name", value: "String" } },
        },
      ],
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          {
            kind: "Field",
            name: { kind: "Name", value: "createPaymentGatewayService" },
            arguments: [
              {
                kind: "Argument",
                name: { kind: "Name", value: "projectId" },
                value: { kind: "Variable", name: { kind: "Name", value: "projectId" } },
              },
              {
                kind: "Argument",
                name: { kind: "Name", value: "name" },
                value: { kind: "Variable", name: { kind: "Name", value: "name" } },
              },
              {
                kind: "Argument",
                name: { kind: "Name", value: "webhookUrl" },
                value: { kind: "Variable", name: { kind: "Name", value: "webhookUrl" } },
              },
            ],
            selectionSet: {
              kind: "SelectionSet",
              selections: [{ kind: "FragmentSpread", name: { kind: "Name", value: "PaymentServiceRow" } }],
            },
          },
        ],
      },
    },
    {
      kind: "FragmentDefinition",
      name: { kind: "Name", value: "PaymentServiceRow" },
      typeCondition: { kind: "NamedType", name: { kind: "Name", value: "PaymentGatewayService" } },
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          { kind: "Field", name: { kind: "Name", value: "id" } },
          { kind: "Field", name: { kind: "Name", value: "name" } },
          { kind: "Field", name: { kind: "Name", value: "webhookUrl" } },
          { kind: "Field", name: { kind: "Name", value: "createdAt" } },
          { kind: "Field", name: { kind: "Name", value: "merchantCode" } },
          { kind: "Field", name: { kind: "Name", value: "merchantStatus" } },
          { kind: "Field", name: { kind: "Name", value: "checkoutUrl" } },
          {
            kind: "Field",
            name: { kind: "Name", value: "paymentMethods" },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "id" } },
                { kind: "Field", name: { kind: "Name", value: "label" } },
                { kind: "Field", name: { kind: "Name", value: "kind" } },
                { kind: "Field", name: { kind: "Name", value: "enabled" } },
              ],
            },
          },
        ],
      },
    },
  ],
} as unknown as DocumentNode<CreatePaymentServiceMutation, CreatePaymentServiceMutationVariables>;
export const UpdatePaymentServiceDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "mutation",
      name: { kind: "Name", value: "UpdatePaymentService" },
      variableDefinitions: [
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "id" } },
          type: { kind: "NonNullType", type: { kind: "NamedType", name: { kind: "Name", value: "ID" } } },
        },
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "name" } },
          type: { kind: "NamedType", name: { kind: "Name", value: "String" } },
        },
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "webhookUrl" } },
          type: { kind: "NamedType", name: { kind: "Name", value: "String" } },
        },
      ],
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          {
            kind: "Field",
            name: { kind: "Name", value: "updatePaymentGatewayService" },
            arguments: [
              {
                kind: "Argument",
                name: { kind: "Name", value: "id" },
                value: { kind: "Variable", name: { kind: "Name", value: "id" } },
              },
              {
                kind: "Argument",
                name: { kind: "Name", value: "name" },
                value: { kind: "Variable", name: { kind: "Name", value: "name" } },
              },
              {
                kind: "Argument",
                name: { kind: "Name", value: "webhookUrl" },
                value: { kind: "Variable", name: { kind: "Name", value: "webhookUrl" } },
              },
            ],
            selectionSet: {
              kind: "SelectionSet",
              selections: [{ kind: "FragmentSpread", name: { kind: "Name", value: "PaymentServiceRow" } }],
            },
          },
        ],
      },
    },
    {
      kind: "FragmentDefinition",
      name: { kind: "Name", value: "PaymentServiceRow" },
      typeCondition: { kind: "NamedType", name: { kind: "Name", value: "PaymentGatewayService" } },
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          { kind: "Field", name: { kind: "Name", value: "id" } },
          { kind: "Field", name: { kind: "Name", value: "name" } },
          { kind: "Field", name: { kind: "Name", value: "webhookUrl" } },
          { kind: "Field", name: { kind: "Name", value: "createdAt" } },
          { kind: "Field", name: { kind: "Name", value: "merchantCode" } },
          { kind: "Field", name: { kind: "Name", value: "merchantStatus" } },
          { kind: "Field", name: { kind: "Name", value: "checkoutUrl" } },
          {
            kind: "Field",
            name: { kind: "Name", value: "paymentMethods" },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "id" } },
                { kind: "Field", name: { kind: "Name", value: "label" } },
                { kind: "Field", name: { kind: "Name", value: "kind" } },
                { kind: "Field", name: { kind: "Name", value: "enabled" } },
              ],
            },
          },
        ],
      },
    },
  ],
} as unknown as DocumentNode<UpdatePaymentServiceMutation, UpdatePaymentServiceMutationVariables>;
export const DeletePaymentServiceDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "mutation",
      name: { kind: "Name", value: "DeletePaymentService" },
      variableDefinitions: [
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "id" } },
          type: { kind: "NonNullType", type: { kind: "NamedType", name: { kind: "Name", value: "ID" } } },
        },
      ],
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          {
            kind: "Field",
            name: { kind: "Name", value: "deletePaymentGatewayService" },
            arguments: [
              {
                kind: "Argument",
                name: { kind: "Name", value: "id" },
                value: { kind: "Variable", name: { kind: "Name", value: "id" } },
              },
            ],
          },
        ],
      },
    },
  ],
} as unknown as DocumentNode<DeletePaymentServiceMutation, DeletePaymentServiceMutationVariables>;
export const SetPaymentMethodDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "mutation",
      name: { kind: "Name", value: "SetPaymentMethod" },
      variableDefinitions: [
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "serviceId" } },
          type: { kind: "NonNullType", type: { kind: "NamedType", name: { kind: "Name", value: "ID" } } },
        },
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "method" } },
          type: { kind: "NonNullType", type: { kind: "NamedType", name: { kind: "Name", value: "String" } } },
        },
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "enabled" } },
          type: { kind: "NonNullType", type: { kind: "NamedType", name: { kind: "Name", value: "Boolean" } } },
        },
      ],
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          {
            kind: "Field",
            name: { kind: "Name", value: "setPaymentMethodEnabled" },
            arguments: [
              {
                kind: "Argument",
                name: { kind: "Name", value: "serviceId" },
                value: { kind: "Variable", name: { kind: "Name", value: "serviceId" } },
              },
              {
                kind: "Argument",
                name: { kind: "Name", value: "method" },
                value: { kind: "Variable", name: { kind: "Name", value: "method" } },
              },
              {
                kind: "Argument",
                name: { kind: "Name", value: "enabled" },
                value: { kind: "Variable", name: { kind: "Name", value: "enabled" } },
              },
            ],
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "id" } },
                { kind: "Field", name: { kind: "Name", value: "label" } },
                { kind: "Field", name: { kind: "Name", value: "kind" } },
                { kind: "Field", name: { kind: "Name", value: "enabled" } },
              ],
            },
          },
        ],
      },
    },
  ],
} as unknown as DocumentNode<SetPaymentMethodMutation, SetPaymentMethodMutationVariables>;
export const PlanUsageDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "query",
      name: { kind: "Name", value: "PlanUsage" },
      variableDefinitions: [
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "id" } },
          type: { kind: "NonNullType", type: { kind: "NamedType", name: { kind: "Name", value: "ID" } } },
        },
      ],
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          {
            kind: "Field",
            name: { kind: "Name", value: "organization" },
            arguments: [
              {
                kind: "Argument",
                name: { kind: "Name", value: "id" },
                value: { kind: "Variable", name: { kind: "Name", value: "id" } },
              },
            ],
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "id" } },
                { kind: "Field", name: { kind: "Name", value: "name" } },
                { kind: "Field", name: { kind: "Name", value: "viewerRole" } },
                {
                  kind: "Field",
                  name: { kind: "Name", value: "plan" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [
                      { kind: "Field", name: { kind: "Name", value: "name" } },
                      { kind: "Field", name: { kind: "Name", value: "features" } },
                      {
                        kind: "Field",
                        name: { kind: "Name", value: "quotas" },
                        selectionSet: {
                          kind: "SelectionSet",
                          selections: [
                            { kind: "Field", name: { kind: "Name", value: "projects" } },
                            { kind: "Field", name: { kind: "Name", value: "applications" } },
                            { kind: "Field", name: { kind: "Name", value: "databases" } },
                            { kind: "Field", name: { kind: "Name", value: "domains" } },
                          ],
                        },
                      },
                      {
                        kind: "Field",
                        name: { kind: "Name", value: "usage" },
                        selectionSet: {
                          kind: "SelectionSet",
                          selections: [
                            { kind: "Field", name: { kind: "Name", value: "projects" } },
                            { kind: "Field", name: { kind: "Name", value: "applications" } },
                            { kind: "Field", name: { kind: "Name", value: "databases" } },
                            { kind: "Field", name: { kind: "Name", value: "domains" } },
                          ],
                        },
                      },
                    ],
                  },
                },
              ],
            },
          },
        ],
      },
    },
  ],
} as unknown as DocumentNode<PlanUsageQuery, PlanUsageQueryVariables>;
export const ProjectTreeDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "query",
      name: { kind: "Name", value: "ProjectTree" },
      variableDefinitions: [
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "after" } },
          type: { kind: "NamedType", name: { kind: "Name", value: "String" } },
        },
      ],
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          {
            kind: "Field",
            name: { kind: "Name", value: "projects" },
            arguments: [
              { kind: "Argument", name: { kind: "Name", value: "first" }, value: { kind: "IntValue", value: "100" } },
              {
                kind: "Argument",
                name: { kind: "Name", value: "after" },
                value: { kind: "Variable", name: { kind: "Name", value: "after" } },
              },
            ],
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "totalCount" } },
                {
                  kind: "Field",
                  name: { kind: "Name", value: "pageInfo" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [
                      { kind: "Field", name: { kind: "Name", value: "hasNextPage" } },
                      { kind: "Field", name: { kind: "Name", value: "endCursor" } },
                    ],
                  },
                },
                {
                  kind: "Field",
                  name: { kind: "Name", value: "edges" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [
                      {
                        kind: "Field",
                        name: { kind: "Name", value: "node" },
                        selectionSet: {
                          kind: "SelectionSet",
                          selections: [
                            { kind: "Field", name: { kind: "Name", value: "id" } },
                            { kind: "Field", name: { kind: "Name", value: "name" } },
                            { kind: "Field", name: { kind: "Name", value: "description" } },
                            { kind: "Field", name: { kind: "Name", value: "createdAt" } },
                            {
                              kind: "Field",
                              name: { kind: "Name", value: "environments" },
                              selectionSet: {
                                kind: "SelectionSet",
                                selections: [
                                  { kind: "Field", name: { kind: "Name", value: "id" } },
                                  { kind: "Field", name: { kind: "Name", value: "name" } },
                                  {
                                    kind: "Field",
                                    name: { kind: "Name", value: "applications" },
                                    selectionSet: {
                                      kind: "SelectionSet",
                                      selections: [
                                        { kind: "Field", name: { kind: "Name", value: "id" } },
                                        { kind: "Field", name: { kind: "Name", value: "name" } },
                                        { kind: "Field", name: { kind: "Name", value: "appName" } },
                                        { kind: "Field", name: { kind: "Name", value: "applicationStatus" } },
                                        { kind: "Field", name: { kind: "Name", value: "health" } },
                                        { kind: "Field", name: { kind: "Name", value: "healthCheckedAt" } },
                                        {
                                          kind: "Field",
                                          name: { kind: "Name", value: "domains" },
                                          selectionSet: {
                                            kind: "SelectionSet",
                                            selections: [
                                              { kind: "Field", name: { kind: "Name", value: "id" } },
                                              { kind: "Field", name: { kind: "Name", value: "host" } },
                                              { kind: "Field", name: { kind: "Name", value: "https" } },
                                            ],
                                          },
                                        },
                                        {
                                          kind: "Field",
                                          name: { kind: "Name", value: "deployments" },
                                          arguments: [
                                            {
                                              kind: "Argument",
                                              name: { kind: "Name", value: "first" },
                                              value: { kind: "IntValue", value: "1" },
                                            },
                                          ],
                                          selectionSet: {
                                            kind: "SelectionSet",
                                            selections: [
                                              { kind: "Field", name: { kind: "Name", value: "id" } },
                                              { kind: "Field", name: { kind: "Name", value: "status" } },
                                              { kind: "Field", name: { kind: "Name", value: "title" } },
                                              { kind: "Field", name: { kind: "Name", value: "createdAt" } },
                                              { kind: "Field", name: { kind: "Name", value: "finishedAt" } },
                                            ],
                                          },
                                        },
                                      ],
                                    },
                                  },
                                  {
                                    kind: "Field",
                                    name: { kind: "Name", value: "databases" },
                                    selectionSet: {
                                      kind: "SelectionSet",
                                      selections: [
                                        { kind: "Field", name: { kind: "Name", value: "id" } },
                                        { kind: "Field", name: { kind: "Name", value: "name" } },
                                        { kind: "Field", name: { kind: "Name", value: "type" } },
                                        { kind: "Field", name: { kind: "Name", value: "user" } },
                                        { kind: "Field", name: { kind: "Name", value: "serviceHost" } },
                                        { kind: "Field", name: { kind: "Name", value: "createdAt" } },
                                      ],
                                    },
                                  },
                                ],
                              },
                            },
                          ],
                        },
                      },
                    ],
                  },
                },
              ],
            },
          },
        ],
      },
    },
  ],
} as unknown as DocumentNode<ProjectTreeQuery, ProjectTreeQueryVariables>;
export const CreateEnvironmentDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "mutation",
      name: { kind: "Name", value: "CreateEnvironment" },
      variableDefinitions: [
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "projectId" } },
          type: { kind: "NonNullType", type: { kind: "NamedType", name: { kind: "Name", value: "ID" } } },
        },
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "name" } },
          type: { kind: "NonNullType", type: { kind: "NamedType", name: { kind: "Name", value: "String" } } },
        },
      ],
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          {
            kind: "Field",
            name: { kind: "Name", value: "createEnvironment" },
            arguments: [
              {
                kind: "Argument",
                name: { kind: "Name", value: "projectId" },
                value: { kind: "Variable", name: { kind: "Name", value: "projectId" } },
              },
              {
                kind: "Argument",
                name: { kind: "Name", value: "name" },
                value: { kind: "Variable", name: { kind: "Name", value: "name" } },
              },
            ],
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "id" } },
                { kind: "Field", name: { kind: "Name", value: "name" } },
              ],
            },
          },
        ],
      },
    },
  ],
} as unknown as DocumentNode<CreateEnvironmentMutation, CreateEnvironmentMutationVariables>;
export const DeleteEnvironmentDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "mutation",
      name: { kind: "Name", value: "DeleteEnvironment" },
      variableDefinitions: [
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "id" } },
          type: { kind: "NonNullType", type: { kind: "NamedType", name: { kind: "Name", value: "ID" } } },
        },
      ],
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          {
            kind: "Field",
            name: { kind: "Name", value: "deleteEnvironment" },
            arguments: [
              {
                kind: "Argument",
                name: { kind: "Name", value: "id" },
                value: { kind: "Variable", name: { kind: "Name", value: "id" } },
              },
            ],
          },
        ],
      },
    },
  ],
} as unknown as DocumentNode<DeleteEnvironmentMutation, DeleteEnvironmentMutationVariables>;
export const CreateApplicationDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "mutation",
      name: { kind: "Name", value: "CreateApplication" },
      variableDefinitions: [
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "input" } },
          type: {
            kind: "NonNullType",
            type: { kind: "NamedType", name: { kind: "Name", value: "CreateApplicationInput" } },
          },
        },
      ],
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          {
            kind: "Field",
            name: { kind: "Name", value: "createApplication" },
            arguments: [
              {
                kind: "Argument",
                name: { kind: "Name", value: "input" },
                value: { kind: "Variable", name: { kind: "Name", value: "input" } },
              },
            ],
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "id" } },
                { kind: "Field", name: { kind: "Name", value: "name" } },
              ],
            },
          },
        ],
      },
    },
  ],
} as unknown as DocumentNode<CreateApplicationMutation, CreateApplicationMutationVariables>;
export const DeleteApplicationDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "mutation",
      name: { kind: "Name", value: "DeleteApplication" },
      variableDefinitions: [
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "id" } },
          type: { kind: "NonNullType", type: { kind: "NamedType", name: { kind: "Name", value: "ID" } } },
        },
      ],
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          {
            kind: "Field",
            name: { kind: "Name", value: "deleteApplication" },
            arguments: [
              {
                kind: "Argument",
                name: { kind: "Name", value: "id" },
                value: { kind: "Variable", name: { kind: "Name", value: "id" } },
              },
            ],
          },
        ],
      },
    },
  ],
} as unknown as DocumentNode<DeleteApplicationMutation, DeleteApplicationMutationVariables>;
export const RenameEnvironmentDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "mutation",
      name: { kind: "Name", value: "RenameEnvironment" },
      variableDefinitions: [
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "id" } },
          type: { kind: "NonNullType", type: { kind: "NamedType", name: { kind: "Name", value: "ID" } } },
        },
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "name" } },
          type: { kind: "NonNullType", type: { kind: "NamedType", name: { kind: "Name", value: "String" } } },
        },
      ],
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          {
            kind: "Field",
            name: { kind: "Name", value: "renameEnvironment" },
            arguments: [
              {
                kind: "Argument",
                name: { kind: "Name", value: "id" },
                value: { kind: "Variable", name: { kind: "Name", value: "id" } },
              },
              {
                kind: "Argument",
                name: { kind: "Name", value: "name" },
                value: { kind: "Variable", name: { kind: "Name", value: "name" } },
              },
            ],
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "id" } },
                { kind: "Field", name: { kind: "Name", value: "name" } },
              ],
            },
          },
        ],
      },
    },
  ],
} as unknown as DocumentNode<RenameEnvironmentMutation, RenameEnvironmentMutationVariables>;
export const CreateDatabaseDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "mutation",
      name: { kind: "Name", value: "CreateDatabase" },
      variableDefinitions: [
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "input" } },
          type: {
            kind: "NonNullType",
            type: { kind: "NamedType", name: { kind: "Name", value: "CreateDatabaseInput" } },
          },
        },
      ],
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          {
            kind: "Field",
            name: { kind: "Name", value: "createDatabase" },
            arguments: [
              {
                kind: "Argument",
                name: { kind: "Name", value: "input" },
                value: { kind: "Variable", name: { kind: "Name", value: "input" } },
              },
            ],
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                {
                  kind: "Field",
                  name: { kind: "Name", value: "database" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [
                      { kind: "Field", name: { kind: "Name", value: "id" } },
                      { kind: "Field", name: { kind: "Name", value: "name" } },
                    ],
                  },
                },
                {
                  kind: "Field",
                  name: { kind: "Name", value: "applications" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [{ kind: "Field", name: { kind: "Name", value: "id" } }],
                  },
                },
                { kind: "Field", name: { kind: "Name", value: "generatedPassword" } },
              ],
            },
          },
        ],
      },
    },
  ],
} as unknown as DocumentNode<CreateDatabaseMutation, CreateDatabaseMutationVariables>;
export const RotateDatabasePasswordDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "mutation",
      name: { kind: "Name", value: "RotateDatabasePassword" },
      variableDefinitions: [
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "id" } },
          type: { kind: "NonNullType", type: { kind: "NamedType", name: { kind: "Name", value: "ID" } } },
        },
      ],
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          {
            kind: "Field",
            name: { kind: "Name", value: "rotateDatabasePassword" },
            arguments: [
              {
                kind: "Argument",
                name: { kind: "Name", value: "id" },
                value: { kind: "Variable", name: { kind: "Name", value: "id" } },
              },
            ],
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                {
                  kind: "Field",
                  name: { kind: "Name", value: "database" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [{ kind: "Field", name: { kind: "Name", value: "id" } }],
                  },
                },
                {
                  kind: "Field",
                  name: { kind: "Name", value: "applications" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [
                      { kind: "Field", name: { kind: "Name", value: "id" } },
                      { kind: "Field", name: { kind: "Name", value: "name" } },
                    ],
                  },
                },
                { kind: "Field", name: { kind: "Name", value: "generatedPassword" } },
              ],
            },
          },
        ],
      },
    },
  ],
} as unknown as DocumentNode<RotateDatabasePasswordMutation, RotateDatabasePasswordMutationVariables>;
export const DeleteDatabaseDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "mutation",
      name: { kind: "Name", value: "DeleteDatabase" },
      variableDefinitions: [
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "id" } },
          type: { kind: "NonNullType", type: { kind: "NamedType", name: { kind: "Name", value: "ID" } } },
        },
      ],
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          {
            kind: "Field",
            name: { kind: "Name", value: "deleteDatabase" },
            arguments: [
              {
                kind: "Argument",
                name: { kind: "Name", value: "id" },
                value: { kind: "Variable", name: { kind: "Name", value: "id" } },
              },
            ],
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "id" } },
                {
                  kind: "Field",
                  name: { kind: "Name", value: "affectedApplications" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [
                      { kind: "Field", name: { kind: "Name", value: "id" } },
                      { kind: "Field", name: { kind: "Name", value: "name" } },
                    ],
                  },
                },
              ],
            },
          },
        ],
      },
    },
  ],
} as unknown as DocumentNode<DeleteDatabaseMutation, DeleteDatabaseMutationVariables>;
export const SettingsDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "query",
      name: { kind: "Name", value: "Settings" },
      variableDefinitions: [
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "id" } },
          type: { kind: "NonNullType", type: { kind: "NamedType", name: { kind: "Name", value: "ID" } } },
        },
      ],
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          {
            kind: "Field",
            name: { kind: "Name", value: "organization" },
            arguments: [
              {
                kind: "Argument",
                name: { kind: "Name", value: "id" },
                value: { kind: "Variable", name: { kind: "Name", value: "id" } },
              },
            ],
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "id" } },
                { kind: "Field", name: { kind: "Name", value: "name" } },
                { kind: "Field", name: { kind: "Name", value: "viewerRole" } },
                {
                  kind: "Field",
                  name: { kind: "Name", value: "apiKeys" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [
                      { kind: "Field", name: { kind: "Name", value: "id" } },
                      { kind: "Field", name: { kind: "Name", value: "name" } },
                      { kind: "Field", name: { kind: "Name", value: "prefix" } },
                      { kind: "Field", name: { kind: "Name", value: "createdAt" } },
                      { kind: "Field", name: { kind: "Name", value: "lastUsedAt" } },
                      { kind: "Field", name: { kind: "Name", value: "current" } },
                      {
                        kind: "Field",
                        name: { kind: "Name", value: "createdBy" },
                        selectionSet: {
                          kind: "SelectionSet",
                          selections: [{ kind: "Field", name: { kind: "Name", value: "email" } }],
                        },
                      },
                    ],
                  },
                },
                {
                  kind: "Field",
                  name: { kind: "Name", value: "members" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [{ kind: "FragmentSpread", name: { kind: "Name", value: "MemberRow" } }],
                  },
                },
                {
                  kind: "Field",
                  name: { kind: "Name", value: "invitations" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [
                      { kind: "Field", name: { kind: "Name", value: "id" } },
                      { kind: "Field", name: { kind: "Name", value: "email" } },
                      { kind: "Field", name: { kind: "Name", value: "role" } },
                      { kind: "Field", name: { kind: "Name", value: "status" } },
                      { kind: "Field", name: { kind: "Name", value: "createdAt" } },
                      { kind: "Field", name: { kind: "Name", value: "expiresAt" } },
                      { kind: "Field", name: { kind: "Name", value: "link" } },
                    ],
                  },
                },
                {
                  kind: "Field",
                  name: { kind: "Name", value: "projects" },
                  arguments: [
                    {
                      kind: "Argument",
                      name: { kind: "Name", value: "first" },
                      value: { kind: "IntValue", value: "100" },
                    },
                  ],
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [
                      {
                        kind: "Field",
                        name: { kind: "Name", value: "edges" },
                        selectionSet: {
                          kind: "SelectionSet",
                          selections: [
                            {
                              kind: "Field",
                              name: { kind: "Name", value: "node" },
                              selectionSet: {
                                kind: "SelectionSet",
                                selections: [
                                  { kind: "Field", name: { kind: "Name", value: "id" } },
                                  { kind: "Field", name: { kind: "Name", value: "name" } },
                                ],
                              },
                            },
                          ],
                        },
                      },
                    ],
                  },
                },
              ],
            },
          },
          {
            kind: "Field",
            name: { kind: "Name", value: "agentToken" },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "prefix" } },
                { kind: "Field", name: { kind: "Name", value: "createdAt" } },
                { kind: "Field", name: { kind: "Name", value: "expiresAt" } },
                { kind: "Field", name: { kind: "Name", value: "lastUsedAt" } },
              ],
            },
          },
        ],
      },
    },
    {
      kind: "FragmentDefinition",
      name: { kind: "Name", value: "MemberRow" },
      typeCondition: { kind: "NamedType", name: { kind: "Name", value: "Member" } },
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          { kind: "Field", name: { kind: "Name", value: "id" } },
          { kind: "Field", name: { kind: "Name", value: "role" } },
          { kind: "Field", name: { kind: "Name", value: "createdAt" } },
          {
            kind: "Field",
            name: { kind: "Name", value: "user" },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "id" } },
                { kind: "Field", name: { kind: "Name", value: "email" } },
                { kind: "Field", name: { kind: "Name", value: "name" } },
              ],
            },
          },
          {
            kind: "Field",
            name: { kind: "Name", value: "grants" },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "id" } },
                { kind: "Field", name: { kind: "Name", value: "createdAt" } },
                {
                  kind: "Field",
                  name: { kind: "Name", value: "project" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [
                      { kind: "Field", name: { kind: "Name", value: "id" } },
                      { kind: "Field", name: { kind: "Name", value: "name" } },
                    ],
                  },
                },
                {
                  kind: "Field",
                  name: { kind: "Name", value: "application" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [
                      { kind: "Field", name: { kind: "Name", value: "id" } },
                      { kind: "Field", name: { kind: "Name", value: "name" } },
                    ],
                  },
                },
              ],
            },
          },
        ],
      },
    },
  ],
} as unknown as DocumentNode<SettingsQuery, SettingsQueryVariables>;
export const CreateApiKeyDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "mutation",
      name: { kind: "Name", value: "CreateApiKey" },
      variableDefinitions: [
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "name" } },
          type: { kind: "NonNullType", type: { kind: "NamedType", name: { kind: "Name", value: "String" } } },
        },
      ],
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          {
            kind: "Field",
            name: { kind: "Name", value: "createApiKey" },
            arguments: [
              {
                kind: "Argument",
                name: { kind: "Name", value: "name" },
                value: { kind: "Variable", name: { kind: "Name", value: "name" } },
              },
            ],
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "secret" } },
                {
                  kind: "Field",
                  name: { kind: "Name", value: "apiKey" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [{ kind: "Field", name: { kind: "Name", value: "id" } }],
                  },
                },
              ],
            },
          },
        ],
      },
    },
  ],
} as unknown as DocumentNode<CreateApiKeyMutation, CreateApiKeyMutationVariables>;
export const DeleteApiKeyDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "mutation",
      name: { kind: "Name", value: "DeleteApiKey" },
      variableDefinitions: [
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "id" } },
          type: { kind: "NonNullType", type: { kind: "NamedType", name: { kind: "Name", value: "ID" } } },
        },
      ],
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          {
            kind: "Field",
            name: { kind: "Name", value: "deleteApiKey" },
            arguments: [
              {
                kind: "Argument",
                name: { kind: "Name", value: "id" },
                value: { kind: "Variable", name: { kind: "Name", value: "id" } },
              },
            ],
          },
        ],
      },
    },
  ],
} as unknown as DocumentNode<DeleteApiKeyMutation, DeleteApiKeyMutationVariables>;
export const CreateAgentTokenDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "mutation",
      name: { kind: "Name", value: "CreateAgentToken" },
      variableDefinitions: [
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "input" } },
          type: { kind: "NamedType", name: { kind: "Name", value: "CreateAgentTokenInput" } },
        },
      ],
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          {
            kind: "Field",
            name: { kind: "Name", value: "createAgentToken" },
            arguments: [
              {
                kind: "Argument",
                name: { kind: "Name", value: "input" },
                value: { kind: "Variable", name: { kind: "Name", value: "input" } },
              },
            ],
            selectionSet: {
              kind: "SelectionSet",
              selections: [{ kind: "Field", name: { kind: "Name", value: "token" } }],
            },
          },
        ],
      },
    },
  ],
} as unknown as DocumentNode<CreateAgentTokenMutation, CreateAgentTokenMutationVariables>;
export const RevokeAgentTokenDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "mutation",
      name: { kind: "Name", value: "RevokeAgentToken" },
      selectionSet: {
        kind: "SelectionSet",
        selections: [{ kind: "Field", name: { kind: "Name", value: "revokeAgentToken" } }],
      },
    },
  ],
} as unknown as DocumentNode<RevokeAgentTokenMutation, RevokeAgentTokenMutationVariables>;
export const InviteMemberDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "mutation",
      name: { kind: "Name", value: "InviteMember" },
      variableDefinitions: [
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "input" } },
          type: {
            kind: "NonNullType",
            type: { kind: "NamedType", name: { kind: "Name", value: "InviteMemberInput" } },
          },
        },
      ],
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          {
            kind: "Field",
            name: { kind: "Name", value: "inviteMember" },
            arguments: [
              {
                kind: "Argument",
                name: { kind: "Name", value: "input" },
                value: { kind: "Variable", name: { kind: "Name", value: "input" } },
              },
            ],
            selectionSet: {
              kind: "SelectionSet",
              selections: [{ kind: "Field", name: { kind: "Name", value: "id" } }],
            },
          },
        ],
      },
    },
  ],
} as unknown as DocumentNode<InviteMemberMutation, InviteMemberMutationVariables>;
export const ResendInvitationDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "mutation",
      name: { kind: "Name", value: "ResendInvitation" },
      variableDefinitions: [
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "id" } },
          type: { kind: "NonNullType", type: { kind: "NamedType", name: { kind: "Name", value: "ID" } } },
        },
      ],
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          {
            kind: "Field",
            name: { kind: "Name", value: "resendInvitation" },
            arguments: [
              {
                kind: "Argument",
                name: { kind: "Name", value: "id" },
                value: { kind: "Variable", name: { kind: "Name", value: "id" } },
              },
            ],
            selectionSet: {
              kind: "SelectionSet",
              selections: [{ kind: "Field", name: { kind: "Name", value: "id" } }],
            },
          },
        ],
      },
    },
  ],
} as unknown as DocumentNode<ResendInvitationMutation, ResendInvitationMutationVariables>;
export const CancelInvitationDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "mutation",
      name: { kind: "Name", value: "CancelInvitation" },
      variableDefinitions: [
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "id" } },
          type: { kind: "NonNullType", type: { kind: "NamedType", name: { kind: "Name", value: "ID" } } },
        },
      ],
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          {
            kind: "Field",
            name: { kind: "Name", value: "cancelInvitation" },
            arguments: [
              {
                kind: "Argument",
                name: { kind: "Name", value: "id" },
                value: { kind: "Variable", name: { kind: "Name", value: "id" } },
              },
            ],
            selectionSet: {
              kind: "SelectionSet",
              selections: [{ kind: "Field", name: { kind: "Name", value: "id" } }],
            },
          },
        ],
      },
    },
  ],
} as unknown as DocumentNode<CancelInvitationMutation, CancelInvitationMutationVariables>;
export const UpdateMemberRoleDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "mutation",
      name: { kind: "Name", value: "UpdateMemberRole" },
      variableDefinitions: [
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "memberId" } },
          type: { kind: "NonNullType", type: { kind: "NamedType", name: { kind: "Name", value: "ID" } } },
        },
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "role" } },
          type: { kind: "NonNullType", type: { kind: "NamedType", name: { kind: "Name", value: "Role" } } },
        },
      ],
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          {
            kind: "Field",
            name: { kind: "Name", value: "updateMemberRole" },
            arguments: [
              {
                kind: "Argument",
                name: { kind: "Name", value: "memberId" },
                value: { kind: "Variable", name: { kind: "Name", value: "memberId" } },
              },
              {
                kind: "Argument",
                name: { kind: "Name", value: "role" },
                value: { kind: "Variable", name: { kind: "Name", value: "role" } },
              },
            ],
            selectionSet: {
              kind: "SelectionSet",
              selections: [{ kind: "Field", name: { kind: "Name", value: "id" } }],
            },
          },
        ],
      },
    },
  ],
} as unknown as DocumentNode<UpdateMemberRoleMutation, UpdateMemberRoleMutationVariables>;
export const RemoveMemberDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "mutation",
      name: { kind: "Name", value: "RemoveMember" },
      variableDefinitions: [
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "memberId" } },
          type: { kind: "NonNullType", type: { kind: "NamedType", name: { kind: "Name", value: "ID" } } },
        },
      ],
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          {
            kind: "Field",
            name: { kind: "Name", value: "removeMember" },
            arguments: [
              {
                kind: "Argument",
                name: { kind: "Name", value: "memberId" },
                value: { kind: "Variable", name: { kind: "Name", value: "memberId" } },
              },
            ],
          },
        ],
      },
    },
  ],
} as unknown as DocumentNode<RemoveMemberMutation, RemoveMemberMutationVariables>;
export const GrantAccessDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "mutation",
      name: { kind: "Name", value: "GrantAccess" },
      variableDefinitions: [
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "input" } },
          type: { kind: "NonNullType", type: { kind: "NamedType", name: { kind: "Name", value: "GrantAccessInput" } } },
        },
      ],
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          {
            kind: "Field",
            name: { kind: "Name", value: "grantAccess" },
            arguments: [
              {
                kind: "Argument",
                name: { kind: "Name", value: "input" },
                value: { kind: "Variable", name: { kind: "Name", value: "input" } },
              },
            ],
            selectionSet: {
              kind: "SelectionSet",
              selections: [{ kind: "Field", name: { kind: "Name", value: "id" } }],
            },
          },
        ],
      },
    },
  ],
} as unknown as DocumentNode<GrantAccessMutation, GrantAccessMutationVariables>;
export const RevokeAccessDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "mutation",
      name: { kind: "Name", value: "RevokeAccess" },
      variableDefinitions: [
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "grantId" } },
          type: { kind: "NonNullType", type: { kind: "NamedType", name: { kind: "Name", value: "ID" } } },
        },
      ],
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          {
            kind: "Field",
            name: { kind: "Name", value: "revokeAccess" },
            arguments: [
              {
                kind: "Argument",
                name: { kind: "Name", value: "grantId" },
                value: { kind: "Variable", name: { kind: "Name", value: "grantId" } },
              },
            ],
          },
        ],
      },
    },
  ],
} as unknown as DocumentNode<RevokeAccessMutation, RevokeAccessMutationVariables>;
export const SiteImportsDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "query",
      name: { kind: "Name", value: "SiteImports" },
      variableDefinitions: [
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "first" } },
          type: { kind: "NonNullType", type: { kind: "NamedType", name: { kind: "Name", value: "Int" } } },
        },
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "offset" } },
          type: { kind: "NonNullType", type: { kind: "NamedType", name: { kind: "Name", value: "Int" } } },
        },
      ],
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          {
            kind: "Field",
            name: { kind: "Name", value: "siteImports" },
            arguments: [
              {
                kind: "Argument",
                name: { kind: "Name", value: "first" },
                value: { kind: "Variable", name: { kind: "Name", value: "first" } },
              },
              {
                kind: "Argument",
                name: { kind: "Name", value: "offset" },
                value: { kind: "Variable", name: { kind: "Name", value: "offset" } },
              },
            ],
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "totalCount" } },
                {
                  kind: "Field",
                  name: { kind: "Name", value: "edges" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [
                      {
                        kind: "Field",
                        name: { kind: "Name", value: "node" },
                        selectionSet: {
                          kind: "SelectionSet",
                          selections: [{ kind: "FragmentSpread", name: { kind: "Name", value: "SiteImportRow" } }],
                        },
                      },
                    ],
                  },
                },
              ],
            },
          },
        ],
      },
    },
    {
      kind: "FragmentDefinition",
      name: { kind: "Name", value: "SiteImportRow" },
      typeCondition: { kind: "NamedType", name: { kind: "Name", value: "SiteImport" } },
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          { kind: "Field", name: { kind: "Name", value: "id" } },
          { kind: "Field", name: { kind: "Name", value: "name" } },
          { kind: "Field", name: { kind: "Name", value: "status" } },
          { kind: "Field", name: { kind: "Name", value: "errorStep" } },
          { kind: "Field", name: { kind: "Name", value: "errorMessage" } },
          { kind: "Field", name: { kind: "Name", value: "attempts" } },
          { kind: "Field", name: { kind: "Name", value: "createdAt" } },
          { kind: "Field", name: { kind: "Name", value: "updatedAt" } },
          { kind: "Field", name: { kind: "Name", value: "finishedAt" } },
          { kind: "Field", name: { kind: "Name", value: "projectId" } },
          { kind: "Field", name: { kind: "Name", value: "applicationId" } },
          { kind: "Field", name: { kind: "Name", value: "databaseId" } },
          { kind: "Field", name: { kind: "Name", value: "domainId" } },
          { kind: "Field", name: { kind: "Name", value: "databaseType" } },
          { kind: "Field", name: { kind: "Name", value: "databaseServiceHost" } },
          {
            kind: "Field",
            name: { kind: "Name", value: "project" },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "id" } },
                { kind: "Field", name: { kind: "Name", value: "name" } },
              ],
            },
          },
          {
            kind: "Field",
            name: { kind: "Name", value: "application" },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "id" } },
                { kind: "Field", name: { kind: "Name", value: "name" } },
                { kind: "Field", name: { kind: "Name", value: "appName" } },
              ],
            },
          },
          {
            kind: "Field",
            name: { kind: "Name", value: "database" },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "id" } },
                { kind: "Field", name: { kind: "Name", value: "name" } },
              ],
            },
          },
          {
            kind: "Field",
            name: { kind: "Name", value: "domain" },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "id" } },
                { kind: "Field", name: { kind: "Name", value: "host" } },
              ],
            },
          },
        ],
      },
    },
  ],
} as unknown as DocumentNode<SiteImportsQuery, SiteImportsQueryVariables>;
export const SiteImportUpdatedDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "subscription",
      name: { kind: "Name", value: "SiteImportUpdated" },
      variableDefinitions: [
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "after" } },
          type: { kind: "NamedType", name: { kind: "Name", value: "String" } },
        },
      ],
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          {
            kind: "Field",
            name: { kind: "Name", value: "siteImportUpdated" },
            arguments: [
              {
                kind: "Argument",
                name: { kind: "Name", value: "after" },
                value: { kind: "Variable", name: { kind: "Name", value: "after" } },
              },
            ],
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "importId" } },
                { kind: "Field", name: { kind: "Name", value: "status" } },
                { kind: "Field", name: { kind: "Name", value: "cursor" } },
                {
                  kind: "Field",
                  name: { kind: "Name", value: "siteImport" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [{ kind: "FragmentSpread", name: { kind: "Name", value: "SiteImportRow" } }],
                  },
                },
              ],
            },
          },
        ],
      },
    },
    {
      kind: "FragmentDefinition",
      name: { kind: "Name", value: "SiteImportRow" },
      typeCondition: { kind: "NamedType", name: { kind: "Name", value: "SiteImport" } },
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          { kind: "Field", name: { kind: "Name", value: "id" } },
          { kind: "Field", name: { kind: "Name", value: "name" } },
          { kind: "Field", name: { kind: "Name", value: "status" } },
          { kind: "Field", name: { kind: "Name", value: "errorStep" } },
          { kind: "Field", name: { kind: "Name", value: "errorMessage" } },
          { kind: "Field", name: { kind: "Name", value: "attempts" } },
          { kind: "Field", name: { kind: "Name", value: "createdAt" } },
          { kind: "Field", name: { kind: "Name", value: "updatedAt" } },
          { kind: "Field", name: { kind: "Name", value: "finishedAt" } },
          { kind: "Field", name: { kind: "Name", value: "projectId" } },
          { kind: "Field", name: { kind: "Name", value: "applicationId" } },
          { kind: "Field", name: { kind: "Name", value: "databaseId" } },
          { kind: "Field", name: { kind: "Name", value: "domainId" } },
          { kind: "Field", name: { kind: "Name", value: "databaseType" } },
          { kind: "Field", name: { kind: "Name", value: "databaseServiceHost" } },
          {
            kind: "Field",
            name: { kind: "Name", value: "project" },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "id" } },
                { kind: "Field", name: { kind: "Name", value: "name" } },
              ],
            },
          },
          {
            kind: "Field",
            name: { kind: "Name", value: "application" },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "id" } },
                { kind: "Field", name: { kind: "Name", value: "name" } },
                { kind: "Field", name: { kind: "Name", value: "appName" } },
              ],
            },
          },
          {
            kind: "Field",
            name: { kind: "Name", value: "database" },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "id" } },
                { kind: "Field", name: { kind: "Name", value: "name" } },
              ],
            },
          },
          {
            kind: "Field",
            name: { kind: "Name", value: "domain" },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "id" } },
                { kind: "Field", name: { kind: "Name", value: "host" } },
              ],
            },
          },
        ],
      },
    },
  ],
} as unknown as DocumentNode<SiteImportUpdatedSubscription, SiteImportUpdatedSubscriptionVariables>;
export const ImportPrerequisitesDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "query",
      name: { kind: "Name", value: "ImportPrerequisites" },
      variableDefinitions: [
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "id" } },
          type: { kind: "NonNullType", type: { kind: "NamedType", name: { kind: "Name", value: "ID" } } },
        },
      ],
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          {
            kind: "Field",
            name: { kind: "Name", value: "organization" },
            arguments: [
              {
                kind: "Argument",
                name: { kind: "Name", value: "id" },
                value: { kind: "Variable", name: { kind: "Name", value: "id" } },
              },
            ],
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "id" } },
                {
                  kind: "Field",
                  name: { kind: "Name", value: "gitProviders" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [
                      { kind: "Field", name: { kind: "Name", value: "id" } },
                      { kind: "Field", name: { kind: "Name", value: "name" } },
                      { kind: "Field", name: { kind: "Name", value: "type" } },
                    ],
                  },
                },
                {
                  kind: "Field",
                  name: { kind: "Name", value: "sshKeys" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [
                      { kind: "Field", name: { kind: "Name", value: "id" } },
                      { kind: "Field", name: { kind: "Name", value: "name" } },
                    ],
                  },
                },
                {
                  kind: "Field",
                  name: { kind: "Name", value: "containerRegistries" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [
                      { kind: "Field", name: { kind: "Name", value: "id" } },
                      { kind: "Field", name: { kind: "Name", value: "name" } },
                    ],
                  },
                },
              ],
            },
          },
        ],
      },
    },
  ],
} as unknown as DocumentNode<ImportPrerequisitesQuery, ImportPrerequisitesQueryVariables>;
export const PreviewSiteImportDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "query",
      name: { kind: "Name", value: "PreviewSiteImport" },
      variableDefinitions: [
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "input" } },
          type: { kind: "NonNullType", type: { kind: "NamedType", name: { kind: "Name", value: "SiteImportInput" } } },
        },
      ],
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          {
            kind: "Field",
            name: { kind: "Name", value: "previewSiteImport" },
            arguments: [
              {
                kind: "Argument",
                name: { kind: "Name", value: "input" },
                value: { kind: "Variable", name: { kind: "Name", value: "input" } },
              },
            ],
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "valid" } },
                { kind: "Field", name: { kind: "Name", value: "warnings" } },
                { kind: "Field", name: { kind: "Name", value: "errors" } },
                {
                  kind: "Field",
                  name: { kind: "Name", value: "resources" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [
                      {
                        kind: "Field",
                        name: { kind: "Name", value: "project" },
                        selectionSet: {
                          kind: "SelectionSet",
                          selections: [{ kind: "Field", name: { kind: "Name", value: "name" } }],
                        },
                      },
                      {
                        kind: "Field",
                        name: { kind: "Name", value: "database" },
                        selectionSet: {
                          kind: "SelectionSet",
                          selections: [
                            { kind: "Field", name: { kind: "Name", value: "type" } },
                            { kind: "Field", name: { kind: "Name", value: "name" } },
                          ],
                        },
                      },
                      {
                        kind: "Field",
                        name: { kind: "Name", value: "application" },
                        selectionSet: {
                          kind: "SelectionSet",
                          selections: [
                            { kind: "Field", name: { kind: "Name", value: "name" } },
                            { kind: "Field", name: { kind: "Name", value: "sourceType" } },
                            { kind: "Field", name: { kind: "Name", value: "buildType" } },
                          ],
                        },
                      },
                      {
                        kind: "Field",
                        name: { kind: "Name", value: "domain" },
                        selectionSet: {
                          kind: "SelectionSet",
                          selections: [{ kind: "Field", name: { kind: "Name", value: "host" } }],
                        },
                      },
                    ],
                  },
                },
              ],
            },
          },
        ],
      },
    },
  ],
} as unknown as DocumentNode<PreviewSiteImportQuery, PreviewSiteImportQueryVariables>;
export const ImportSiteDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "mutation",
      name: { kind: "Name", value: "ImportSite" },
      variableDefinitions: [
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "input" } },
          type: { kind: "NonNullType", type: { kind: "NamedType", name: { kind: "Name", value: "SiteImportInput" } } },
        },
      ],
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          {
            kind: "Field",
            name: { kind: "Name", value: "importSite" },
            arguments: [
              {
                kind: "Argument",
                name: { kind: "Name", value: "input" },
                value: { kind: "Variable", name: { kind: "Name", value: "input" } },
              },
            ],
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "importId" } },
                { kind: "Field", name: { kind: "Name", value: "status" } },
                { kind: "Field", name: { kind: "Name", value: "errorStep" } },
                { kind: "Field", name: { kind: "Name", value: "errorMessage" } },
                {
                  kind: "Field",
                  name: { kind: "Name", value: "siteImport" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [{ kind: "FragmentSpread", name: { kind: "Name", value: "SiteImportRow" } }],
                  },
                },
              ],
            },
          },
        ],
      },
    },
    {
      kind: "FragmentDefinition",
      name: { kind: "Name", value: "SiteImportRow" },
      typeCondition: { kind: "NamedType", name: { kind: "Name", value: "SiteImport" } },
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          { kind: "Field", name: { kind: "Name", value: "id" } },
          { kind: "Field", name: { kind: "Name", value: "name" } },
          { kind: "Field", name: { kind: "Name", value: "status" } },
          { kind: "Field", name: { kind: "Name", value: "errorStep" } },
          { kind: "Field", name: { kind: "Name", value: "errorMessage" } },
          { kind: "Field", name: { kind: "Name", value: "attempts" } },
          { kind: "Field", name: { kind: "Name", value: "createdAt" } },
          { kind: "Field", name: { kind: "Name", value: "updatedAt" } },
          { kind: "Field", name: { kind: "Name", value: "finishedAt" } },
          { kind: "Field", name: { kind: "Name", value: "projectId" } },
          { kind: "Field", name: { kind: "Name", value: "applicationId" } },
          { kind: "Field", name: { kind: "Name", value: "databaseId" } },
          { kind: "Field", name: { kind: "Name", value: "domainId" } },
          { kind: "Field", name: { kind: "Name", value: "databaseType" } },
          { kind: "Field", name: { kind: "Name", value: "databaseServiceHost" } },
          {
            kind: "Field",
            name: { kind: "Name", value: "project" },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "id" } },
                { kind: "Field", name: { kind: "Name", value: "name" } },
              ],
            },
          },
          {
            kind: "Field",
            name: { kind: "Name", value: "application" },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "id" } },
                { kind: "Field", name: { kind: "Name", value: "name" } },
                { kind: "Field", name: { kind: "Name", value: "appName" } },
              ],
            },
          },
          {
            kind: "Field",
            name: { kind: "Name", value: "database" },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "id" } },
                { kind: "Field", name: { kind: "Name", value: "name" } },
              ],
            },
          },
          {
            kind: "Field",
            name: { kind: "Name", value: "domain" },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "id" } },
                { kind: "Field", name: { kind: "Name", value: "host" } },
              ],
            },
          },
        ],
      },
    },
  ],
} as unknown as DocumentNode<ImportSiteMutation, ImportSiteMutationVariables>;
export const RetrySiteImportDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "mutation",
      name: { kind: "Name", value: "RetrySiteImport" },
      variableDefinitions: [
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "id" } },
          type: { kind: "NonNullType", type: { kind: "NamedType", name: { kind: "Name", value: "ID" } } },
        },
      ],
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          {
            kind: "Field",
            name: { kind: "Name", value: "retrySiteImport" },
            arguments: [
              {
                kind: "Argument",
                name: { kind: "Name", value: "id" },
                value: { kind: "Variable", name: { kind: "Name", value: "id" } },
              },
            ],
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "importId" } },
                { kind: "Field", name: { kind: "Name", value: "status" } },
                { kind: "Field", name: { kind: "Name", value: "errorStep" } },
                { kind: "Field", name: { kind: "Name", value: "errorMessage" } },
                {
                  kind: "Field",
                  name: { kind: "Name", value: "siteImport" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [{ kind: "FragmentSpread", name: { kind: "Name", value: "SiteImportRow" } }],
                  },
                },
              ],
            },
          },
        ],
      },
    },
    {
      kind: "FragmentDefinition",
      name: { kind: "Name", value: "SiteImportRow" },
      typeCondition: { kind: "NamedType", name: { kind: "Name", value: "SiteImport" } },
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          { kind: "Field", name: { kind: "Name", value: "id" } },
          { kind: "Field", name: { kind: "Name", value: "name" } },
          { kind: "Field", name: { kind: "Name", value: "status" } },
          { kind: "Field", name: { kind: "Name", value: "errorStep" } },
          { kind: "Field", name: { kind: "Name", value: "errorMessage" } },
          { kind: "Field", name: { kind: "Name", value: "attempts" } },
          { kind: "Field", name: { kind: "Name", value: "createdAt" } },
          { kind: "Field", name: { kind: "Name", value: "updatedAt" } },
          { kind: "Field", name: { kind: "Name", value: "finishedAt" } },
          { kind: "Field", name: { kind: "Name", value: "projectId" } },
          { kind: "Field", name: { kind: "Name", value: "applicationId" } },
          { kind: "Field", name: { kind: "Name", value: "databaseId" } },
          { kind: "Field", name: { kind: "Name", value: "domainId" } },
          { kind: "Field", name: { kind: "Name", value: "databaseType" } },
          { kind: "Field", name: { kind: "Name", value: "databaseServiceHost" } },
          {
            kind: "Field",
            name: { kind: "Name", value: "project" },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "id" } },
                { kind: "Field", name: { kind: "Name", value: "name" } },
              ],
            },
          },
          {
            kind: "Field",
            name: { kind: "Name", value: "application" },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "id" } },
                { kind: "Field", name: { kind: "Name", value: "name" } },
                { kind: "Field", name: { kind: "Name", value: "appName" } },
              ],
            },
          },
          {
            kind: "Field",
            name: { kind: "Name", value: "database" },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "id" } },
                { kind: "Field", name: { kind: "Name", value: "name" } },
              ],
            },
          },
          {
            kind: "Field",
            name: { kind: "Name", value: "domain" },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "id" } },
                { kind: "Field", name: { kind: "Name", value: "host" } },
              ],
            },
          },
        ],
      },
    },
  ],
} as unknown as DocumentNode<RetrySiteImportMutation, RetrySiteImportMutationVariables>;
export const DeleteSiteImportDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "mutation",
      name: { kind: "Name", value: "DeleteSiteImport" },
      variableDefinitions: [
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "id" } },
          type: { kind: "NonNullType", type: { kind: "NamedType", name: { kind: "Name", value: "ID" } } },
        },
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "rollbackResources" } },
          type: { kind: "NonNullType", type: { kind: "NamedType", name: { kind: "Name", value: "Boolean" } } },
        },
      ],
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          {
            kind: "Field",
            name: { kind: "Name", value: "deleteSiteImport" },
            arguments: [
              {
                kind: "Argument",
                name: { kind: "Name", value: "id" },
                value: { kind: "Variable", name: { kind: "Name", value: "id" } },
              },
              {
                kind: "Argument",
                name: { kind: "Name", value: "rollbackResources" },
                value: { kind: "Variable", name: { kind: "Name", value: "rollbackResources" } },
              },
            ],
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "id" } },
                { kind: "Field", name: { kind: "Name", value: "rolledBack" } },
                { kind: "Field", name: { kind: "Name", value: "deletedProjectId" } },
              ],
            },
          },
        ],
      },
    },
  ],
} as unknown as DocumentNode<DeleteSiteImportMutation, DeleteSiteImportMutationVariables>;
export const WebhooksDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "query",
      name: { kind: "Name", value: "Webhooks" },
      variableDefinitions: [
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "organizationId" } },
          type: { kind: "NonNullType", type: { kind: "NamedType", name: { kind: "Name", value: "ID" } } },
        },
      ],
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          {
            kind: "Field",
            name: { kind: "Name", value: "webhooks" },
            arguments: [
              {
                kind: "Argument",
                name: { kind: "Name", value: "organizationId" },
                value: { kind: "Variable", name: { kind: "Name", value: "organizationId" } },
              },
            ],
            selectionSet: {
              kind: "SelectionSet",
              selections: [{ kind: "FragmentSpread", name: { kind: "Name", value: "WebhookEndpointRow" } }],
            },
          },
          {
            kind: "Field",
            name: { kind: "Name", value: "webhookEvents" },
            arguments: [
              {
                kind: "Argument",
                name: { kind: "Name", value: "organizationId" },
                value: { kind: "Variable", name: { kind: "Name", value: "organizationId" } },
              },
            ],
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "name" } },
                { kind: "Field", name: { kind: "Name", value: "category" } },
                { kind: "Field", name: { kind: "Name", value: "description" } },
              ],
            },
          },
        ],
      },
    },
    {
      kind: "FragmentDefinition",
      name: { kind: "Name", value: "WebhookEndpointRow" },
      typeCondition: { kind: "NamedType", name: { kind: "Name", value: "WebhookEndpoint" } },
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          { kind: "Field", name: { kind: "Name", value: "webhookUuid" } },
          { kind: "Field", name: { kind: "Name", value: "url" } },
          { kind: "Field", name: { kind: "Name", value: "events" } },
          { kind: "Field", name: { kind: "Name", value: "isActive" } },
          { kind: "Field", name: { kind: "Name", value: "description" } },
          { kind: "Field", name: { kind: "Name", value: "creationDate" } },
          { kind: "Field", name: { kind: "Name", value: "updateDate" } },
        ],
      },
    },
  ],
} as unknown as DocumentNode<WebhooksQuery, WebhooksQueryVariables>;
export const WebhookDeliveriesDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "query",
      name: { kind: "Name", value: "WebhookDeliveries" },
      variableDefinitions: [
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "organizationId" } },
          type: { kind: "NonNullType", type: { kind: "NamedType", name: { kind: "Name", value: "ID" } } },
        },
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "webhookUuid" } },
          type: { kind: "NonNullType", type: { kind: "NamedType", name: { kind: "Name", value: "ID" } } },
        },
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "limit" } },
          type: { kind: "NamedType", name: { kind: "Name", value: "Int" } },
        },
      ],
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          {
            kind: "Field",
            name: { kind: "Name", value: "webhookDeliveries" },
            arguments: [
              {
                kind: "Argument",
                name: { kind: "Name", value: "organizationId" },
                value: { kind: "Variable", name: { kind: "Name", value: "organizationId" } },
              },
              {
                kind: "Argument",
                name: { kind: "Name", value: "webhookUuid" },
                value: { kind: "Variable", name: { kind: "Name", value: "webhookUuid" } },
              },
              {
                kind: "Argument",
                name: { kind: "Name", value: "limit" },
                value: { kind: "Variable", name: { kind: "Name", value: "limit" } },
              },
            ],
            selectionSet: {
              kind: "SelectionSet",
              selections: [{ kind: "FragmentSpread", name: { kind: "Name", value: "WebhookDeliveryRow" } }],
            },
          },
        ],
      },
    },
    {
      kind: "FragmentDefinition",
      name: { kind: "Name", value: "WebhookDeliveryRow" },
      typeCondition: { kind: "NamedType", name: { kind: "Name", value: "WebhookDeliveryAttempt" } },
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          { kind: "Field", name: { kind: "Name", value: "deliveryId" } },
          { kind: "Field", name: { kind: "Name", value: "event" } },
          { kind: "Field", name: { kind: "Name", value: "attempt" } },
          { kind: "Field", name: { kind: "Name", value: "success" } },
          { kind: "Field", name: { kind: "Name", value: "responseStatus" } },
          { kind: "Field", name: { kind: "Name", value: "errorMessage" } },
          { kind: "Field", name: { kind: "Name", value: "durationMs" } },
          { kind: "Field", name: { kind: "Name", value: "createdAt" } },
        ],
      },
    },
  ],
} as unknown as DocumentNode<WebhookDeliveriesQuery, WebhookDeliveriesQueryVariables>;
export const CreateWebhookDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "mutation",
      name: { kind: "Name", value: "CreateWebhook" },
      variableDefinitions: [
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "organizationId" } },
          type: { kind: "NonNullType", type: { kind: "NamedType", name: { kind: "Name", value: "ID" } } },
        },
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "input" } },
          type: {
            kind: "NonNullType",
            type: { kind: "NamedType", name: { kind: "Name", value: "CreateWebhookInput" } },
          },
        },
      ],
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          {
            kind: "Field",
            name: { kind: "Name", value: "createWebhook" },
            arguments: [
              {
                kind: "Argument",
                name: { kind: "Name", value: "organizationId" },
                value: { kind: "Variable", name: { kind: "Name", value: "organizationId" } },
              },
              {
                kind: "Argument",
                name: { kind: "Name", value: "input" },
                value: { kind: "Variable", name: { kind: "Name", value: "input" } },
              },
            ],
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "secret" } },
                {
                  kind: "Field",
                  name: { kind: "Name", value: "webhook" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [{ kind: "FragmentSpread", name: { kind: "Name", value: "WebhookEndpointRow" } }],
                  },
                },
              ],
            },
          },
        ],
      },
    },
    {
      kind: "FragmentDefinition",
      name: { kind: "Name", value: "WebhookEndpointRow" },
      typeCondition: { kind: "NamedType", name: { kind: "Name", value: "WebhookEndpoint" } },
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          { kind: "Field", name: { kind: "Name", value: "webhookUuid" } },
          { kind: "Field", name: { kind: "Name", value: "url" } },
          { kind: "Field", name: { kind: "Name", value: "events" } },
          { kind: "Field", name: { kind: "Name", value: "isActive" } },
          { kind: "Field", name: { kind: "Name", value: "description" } },
          { kind: "Field", name: { kind: "Name", value: "creationDate" } },
          { kind: "Field", name: { kind: "Name", value: "updateDate" } },
        ],
      },
    },
  ],
} as unknown as DocumentNode<CreateWebhookMutation, CreateWebhookMutationVariables>;
export const UpdateWebhookDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "mutation",
      name: { kind: "Name", value: "UpdateWebhook" },
      variableDefinitions: [
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "organizationId" } },
          type: { kind: "NonNullType", type: { kind: "NamedType", name: { kind: "Name", value: "ID" } } },
        },
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "webhookUuid" } },
          type: { kind: "NonNullType", type: { kind: "NamedType", name: { kind: "Name", value: "ID" } } },
        },
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "input" } },
          type: {
            kind: "NonNullType",
            type: { kind: "NamedType", name: { kind: "Name", value: "UpdateWebhookInput" } },
          },
        },
      ],
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          {
            kind: "Field",
            name: { kind: "Name", value: "updateWebhook" },
            arguments: [
              {
                kind: "Argument",
                name: { kind: "Name", value: "organizationId" },
                value: { kind: "Variable", name: { kind: "Name", value: "organizationId" } },
              },
              {
                kind: "Argument",
                name: { kind: "Name", value: "webhookUuid" },
                value: { kind: "Variable", name: { kind: "Name", value: "webhookUuid" } },
              },
              {
                kind: "Argument",
                name: { kind: "Name", value: "input" },
                value: { kind: "Variable", name: { kind: "Name", value: "input" } },
              },
            ],
            selectionSet: {
              kind: "SelectionSet",
              selections: [{ kind: "FragmentSpread", name: { kind: "Name", value: "WebhookEndpointRow" } }],
            },
          },
        ],
      },
    },
    {
      kind: "FragmentDefinition",
      name: { kind: "Name", value: "WebhookEndpointRow" },
      typeCondition: { kind: "NamedType", name: { kind: "Name", value: "WebhookEndpoint" } },
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          { kind: "Field", name: { kind: "Name", value: "webhookUuid" } },
          { kind: "Field", name: { kind: "Name", value: "url" } },
          { kind: "Field", name: { kind: "Name", value: "events" } },
          { kind: "Field", name: { kind: "Name", value: "isActive" } },
          { kind: "Field", name: { kind: "Name", value: "description" } },
          { kind: "Field", name: { kind: "Name", value: "creationDate" } },
          { kind: "Field", name: { kind: "Name", value: "updateDate" } },
        ],
      },
    },
  ],
} as unknown as DocumentNode<UpdateWebhookMutation, UpdateWebhookMutationVariables>;
export const DeleteWebhookDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "mutation",
      name: { kind: "Name", value: "DeleteWebhook" },
      variableDefinitions: [
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "organizationId" } },
          type: { kind: "NonNullType", type: { kind: "NamedType", name: { kind: "Name", value: "ID" } } },
        },
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "webhookUuid" } },
          type: { kind: "NonNullType", type: { kind: "NamedType", name: { kind: "Name", value: "ID" } } },
        },
      ],
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          {
            kind: "Field",
            name: { kind: "Name", value: "deleteWebhook" },
            arguments: [
              {
                kind: "Argument",
                name: { kind: "Name", value: "organizationId" },
                value: { kind: "Variable", name: { kind: "Name", value: "organizationId" } },
              },
              {
                kind: "Argument",
                name: { kind: "Name", value: "webhookUuid" },
                value: { kind: "Variable", name: { kind: "Name", value: "webhookUuid" } },
              },
            ],
          },
        ],
      },
    },
  ],
} as unknown as DocumentNode<DeleteWebhookMutation, DeleteWebhookMutationVariables>;
export const RegenerateWebhookSecretDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "mutation",
      name: { kind: "Name", value: "RegenerateWebhookSecret" },
      variableDefinitions: [
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "organizationId" } },
          type: { kind: "NonNullType", type: { kind: "NamedType", name: { kind: "Name", value: "ID" } } },
        },
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "webhookUuid" } },
          type: { kind: "NonNullType", type: { kind: "NamedType", name: { kind: "Name", value: "ID" } } },
        },
      ],
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          {
            kind: "Field",
            name: { kind: "Name", value: "regenerateWebhookSecret" },
            arguments: [
              {
                kind: "Argument",
                name: { kind: "Name", value: "organizationId" },
                value: { kind: "Variable", name: { kind: "Name", value: "organizationId" } },
              },
              {
                kind: "Argument",
                name: { kind: "Name", value: "webhookUuid" },
                value: { kind: "Variable", name: { kind: "Name", value: "webhookUuid" } },
              },
            ],
            selectionSet: {
              kind: "SelectionSet",
              selections: [{ kind: "Field", name: { kind: "Name", value: "secret" } }],
            },
          },
        ],
      },
    },
  ],
} as unknown as DocumentNode<RegenerateWebhookSecretMutation, RegenerateWebhookSecretMutationVariables>;
export const TestWebhookDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "mutation",
      name: { kind: "Name", value: "TestWebhook" },
      variableDefinitions: [
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "organizationId" } },
          type: { kind: "NonNullType", type: { kind: "NamedType", name: { kind: "Name", value: "ID" } } },
        },
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "webhookUuid" } },
          type: { kind: "NonNullType", type: { kind: "NamedType", name: { kind: "Name", value: "ID" } } },
        },
      ],
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          {
            kind: "Field",
            name: { kind: "Name", value: "testWebhook" },
            arguments: [
              {
                kind: "Argument",
                name: { kind: "Name", value: "organizationId" },
                value: { kind: "Variable", name: { kind: "Name", value: "organizationId" } },
              },
              {
                kind: "Argument",
                name: { kind: "Name", value: "webhookUuid" },
                value: { kind: "Variable", name: { kind: "Name", value: "webhookUuid" } },
              },
            ],
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "deliveryId" } },
                {
                  kind: "Field",
                  name: { kind: "Name", value: "firstAttempt" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [{ kind: "FragmentSpread", name: { kind: "Name", value: "WebhookDeliveryRow" } }],
                  },
                },
              ],
            },
          },
        ],
      },
    },
    {
      kind: "FragmentDefinition",
      name: { kind: "Name", value: "WebhookDeliveryRow" },
      typeCondition: { kind: "NamedType", name: { kind: "Name", value: "WebhookDeliveryAttempt" } },
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          { kind: "Field", name: { kind: "Name", value: "deliveryId" } },
          { kind: "Field", name: { kind: "Name", value: "event" } },
          { kind: "Field", name: { kind: "Name", value: "attempt" } },
          { kind: "Field", name: { kind: "Name", value: "success" } },
          { kind: "Field", name: { kind: "Name", value: "responseStatus" } },
          { kind: "Field", name: { kind: "Name", value: "errorMessage" } },
          { kind: "Field", name: { kind: "Name", value: "durationMs" } },
          { kind: "Field", name: { kind: "Name", value: "createdAt" } },
        ],
      },
    },
  ],
} as unknown as DocumentNode<TestWebhookMutation, TestWebhookMutationVariables>;
export const RedeliverWebhookDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "mutation",
      name: { kind: "Name", value: "RedeliverWebhook" },
      variableDefinitions: [
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "organizationId" } },
          type: { kind: "NonNullType", type: { kind: "NamedType", name: { kind: "Name", value: "ID" } } },
        },
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "webhookUuid" } },
          type: { kind: "NonNullType", type: { kind: "NamedType", name: { kind: "Name", value: "ID" } } },
        },
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "deliveryId" } },
          type: { kind: "NonNullType", type: { kind: "NamedType", name: { kind: "Name", value: "String" } } },
        },
      ],
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          {
            kind: "Field",
            name: { kind: "Name", value: "redeliverWebhook" },
            arguments: [
              {
                kind: "Argument",
                name: { kind: "Name", value: "organizationId" },
                value: { kind: "Variable", name: { kind: "Name", value: "organizationId" } },
              },
              {
                kind: "Argument",
                name: { kind: "Name", value: "webhookUuid" },
                value: { kind: "Variable", name: { kind: "Name", value: "webhookUuid" } },
              },
              {
                kind: "Argument",
                name: { kind: "Name", value: "deliveryId" },
                value: { kind: "Variable", name: { kind: "Name", value: "deliveryId" } },
              },
            ],
          },
        ],
      },
    },
  ],
} as unknown as DocumentNode<RedeliverWebhookMutation, RedeliverWebhookMutationVariables>;
export const ViewerDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "query",
      name: { kind: "Name", value: "Viewer" },
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          {
            kind: "Field",
            name: { kind: "Name", value: "viewer" },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                {
                  kind: "Field",
                  name: { kind: "Name", value: "user" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [
                      { kind: "Field", name: { kind: "Name", value: "id" } },
                      { kind: "Field", name: { kind: "Name", value: "email" } },
                      { kind: "Field", name: { kind: "Name", value: "name" } },
                      { kind: "Field", name: { kind: "Name", value: "twoFactorEnabled" } },
                    ],
                  },
                },
                {
                  kind: "Field",
                  name: { kind: "Name", value: "activeOrganization" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [
                      { kind: "Field", name: { kind: "Name", value: "id" } },
                      { kind: "Field", name: { kind: "Name", value: "name" } },
                    ],
                  },
                },
                { kind: "Field", name: { kind: "Name", value: "role" } },
              ],
            },
          },
          {
            kind: "Field",
            name: { kind: "Name", value: "organizations" },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "id" } },
                { kind: "Field", name: { kind: "Name", value: "name" } },
                { kind: "Field", name: { kind: "Name", value: "viewerRole" } },
                {
                  kind: "Field",
                  name: { kind: "Name", value: "plan" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [{ kind: "Field", name: { kind: "Name", value: "name" } }],
                  },
                },
              ],
            },
          },
        ],
      },
    },
  ],
} as unknown as DocumentNode<ViewerQuery, ViewerQueryVariables>;
export const SetActiveOrganizationDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "mutation",
      name: { kind: "Name", value: "SetActiveOrganization" },
      variableDefinitions: [
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "id" } },
          type: { kind: "NonNullType", type: { kind: "NamedType", name: { kind: "Name", value: "ID" } } },
        },
      ],
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          {
            kind: "Field",
            name: { kind: "Name", value: "setActiveOrganization" },
            arguments: [
              {
                kind: "Argument",
                name: { kind: "Name", value: "id" },
                value: { kind: "Variable", name: { kind: "Name", value: "id" } },
              },
            ],
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                {
                  kind: "Field",
                  name: { kind: "Name", value: "activeOrganization" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [{ kind: "Field", name: { kind: "Name", value: "id" } }],
                  },
                },
              ],
            },
          },
        ],
      },
    },
  ],
} as unknown as DocumentNode<SetActiveOrganizationMutation, SetActiveOrganizationMutationVariables>;
export const CreateOrganizationDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "mutation",
      name: { kind: "Name", value: "CreateOrganization" },
      variableDefinitions: [
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "input" } },
          type: {
            kind: "NonNullType",
            type: { kind: "NamedType", name: { kind: "Name", value: "CreateOrganizationInput" } },
          },
        },
      ],
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          {
            kind: "Field",
            name: { kind: "Name", value: "createOrganization" },
            arguments: [
              {
                kind: "Argument",
                name: { kind: "Name", value: "input" },
                value: { kind: "Variable", name: { kind: "Name", value: "input" } },
              },
            ],
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "id" } },
                { kind: "Field", name: { kind: "Name", value: "name" } },
              ],
            },
          },
        ],
      },
    },
  ],
} as unknown as DocumentNode<CreateOrganizationMutation, CreateOrganizationMutationVariables>;
