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

/** How an image is built from source. */
export type BuildType = "dockerfile" | "nixpacks";

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

/** One variable to set. */
export type EnvironmentVariableInput = {
  /** Name: letters, digits and `_`, not starting with a digit, at most 253 characters (the limit of a Kubernetes Secret key). */
  key: string;
  /**
   * Value, at most 32768 characters. Stored encrypted; never logged. An application's variables take at most
   * 1,000,000 bytes together (names and values in UTF-8), what one Kubernetes Secret holds with a margin.
   */
  value: string;
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
 * Progress of one step in the current (or last) run of an import: `pending` (not run yet), `done` (committed; its
 * resource exists, or existed, and its id is on the record), `failed` (the run ended at this step), `skipped` (not
 * requested: no `database` or no `domain`).
 */
export type SiteImportStepStatus = "done" | "failed" | "pending" | "skipped";

/**
 * What a `siteImportUpdated` event reports: a status of the record (`SiteImportStatus`), or `deleted` when the
 * record was deleted (`siteImport` is then null).
 */
export type SiteImportUpdateStatus = "deleted" | "failed" | "partial" | "pending" | "success";

/** Where an application's code or image comes from. */
export type SourceType = "docker" | "git" | "github" | "gitlab";

export type CliImportUpdatesSubscriptionVariables = Exact<{
  after?: string | null | undefined;
}>;

export type CliImportUpdatesSubscription = {
  siteImportUpdated: {
    importId: string;
    status: SiteImportUpdateStatus;
    cursor: string;
    siteImport: {
      id: string;
      name: string;
      status: SiteImportStatus;
      projectId: string | null;
      databaseId: string | null;
      applicationId: string | null;
      domainId: string | null;
      deploymentId: string | null;
      errorStep: SiteImportStep | null;
      errorMessage: string | null;
      steps: Array<{ step: SiteImportStep; status: SiteImportStepStatus }>;
      deployment: { id: string; status: string | null } | null;
    } | null;
  };
};

export type CliImportRecordQueryVariables = Exact<{
  id: string | number;
}>;

export type CliImportRecordQuery = {
  siteImport: {
    id: string;
    name: string;
    status: SiteImportStatus;
    projectId: string | null;
    databaseId: string | null;
    applicationId: string | null;
    domainId: string | null;
    deploymentId: string | null;
    errorStep: SiteImportStep | null;
    errorMessage: string | null;
    steps: Array<{ step: SiteImportStep; status: SiteImportStepStatus }>;
    deployment: { id: string; status: string | null } | null;
  } | null;
};

export type CliRetryImportMutationVariables = Exact<{
  id: string | number;
}>;

export type CliRetryImportMutation = {
  retrySiteImport: {
    importId: string;
    status: SiteImportStatus;
    projectId: string | null;
    applicationId: string | null;
    databaseId: string | null;
    domainId: string | null;
    errorStep: SiteImportStep | null;
    errorMessage: string | null;
  };
};

export type CliRollbackImportMutationVariables = Exact<{
  id: string | number;
}>;

export type CliRollbackImportMutation = {
  deleteSiteImport: { id: string; rolledBack: boolean; deletedProjectId: string | null };
};

export type CliDeploymentFragment = {
  id: string;
  status: string | null;
  title: string;
  trigger: string;
  commitSha: string | null;
  errorMessage: string | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  logs: Array<{ at: string; level: string; text: string }>;
};

export type CliApplicationQueryVariables = Exact<{
  id: string | number;
}>;

export type CliApplicationQuery = {
  application: { id: string; name: string; project: { id: string; name: string } } | null;
};

export type CliProjectApplicationsQueryVariables = Exact<{
  id: string | number;
}>;

export type CliProjectApplicationsQuery = {
  project: {
    id: string;
    name: string;
    environments: Array<{ name: string; applications: Array<{ id: string; name: string }> }>;
  } | null;
};

export type CliProjectsQueryVariables = Exact<{
  after?: string | null | undefined;
}>;

export type CliProjectsQuery = {
  projects: {
    edges: Array<{
      node: {
        id: string;
        name: string;
        environments: Array<{ name: string; applications: Array<{ id: string; name: string }> }>;
      };
    }>;
    pageInfo: { hasNextPage: boolean; endCursor: string | null };
  };
};

export type CliDeployApplicationMutationVariables = Exact<{
  applicationId: string | number;
  title?: string | null | undefined;
}>;

export type CliDeployApplicationMutation = {
  deployApplication: {
    id: string;
    status: string | null;
    title: string;
    trigger: string;
    commitSha: string | null;
    errorMessage: string | null;
    createdAt: string;
    startedAt: string | null;
    finishedAt: string | null;
    logs: Array<{ at: string; level: string; text: string }>;
  };
};

export type CliDeploymentUpdatesSubscriptionVariables = Exact<{
  applicationId: string | number;
  after?: string | null | undefined;
}>;

export type CliDeploymentUpdatesSubscription = {
  deploymentUpdated: {
    deploymentId: string;
    status: string;
    cursor: string;
    logLine: { at: string; level: string; text: string } | null;
    deployment: {
      id: string;
      status: string | null;
      title: string;
      trigger: string;
      commitSha: string | null;
      errorMessage: string | null;
      createdAt: string;
      startedAt: string | null;
      finishedAt: string | null;
      logs: Array<{ at: string; level: string; text: string }>;
    };
  };
};

export type CliApplicationDeploymentsQueryVariables = Exact<{
  id: string | number;
}>;

export type CliApplicationDeploymentsQuery = {
  application: {
    id: string;
    deployments: Array<{
      id: string;
      status: string | null;
      title: string;
      trigger: string;
      commitSha: string | null;
      errorMessage: string | null;
      createdAt: string;
      startedAt: string | null;
      finishedAt: string | null;
      logs: Array<{ at: string; level: string; text: string }>;
    }>;
  } | null;
};

export type CliEnvironmentVariablesQueryVariables = Exact<{
  id: string | number;
}>;

export type CliEnvironmentVariablesQuery = {
  application: {
    id: string;
    name: string;
    needsDeployment: boolean;
    environmentVariables: Array<{ key: string; value: string }>;
  } | null;
};

export type CliApplicationNamesQueryVariables = Exact<{
  id: string | number;
}>;

export type CliApplicationNamesQuery = {
  application: { id: string; environmentVariables: Array<{ key: string }>; domains: Array<{ host: string }> } | null;
};

export type CliSetEnvironmentVariablesMutationVariables = Exact<{
  id: string | number;
  variables?: Array<EnvironmentVariableInput> | EnvironmentVariableInput | null | undefined;
  dotenv?: string | null | undefined;
  deploy?: boolean | null | undefined;
}>;

export type CliSetEnvironmentVariablesMutation = {
  setEnvironmentVariables: {
    setKeys: Array<string>;
    application: { id: string; needsDeployment: boolean };
    deployment: { id: string; status: string | null } | null;
  };
};

export type CliUnsetEnvironmentVariableMutationVariables = Exact<{
  id: string | number;
  key: string;
  deploy?: boolean | null | undefined;
}>;

export type CliUnsetEnvironmentVariableMutation = {
  unsetEnvironmentVariable: { id: string; needsDeployment: boolean };
};

export type CliAddDomainMutationVariables = Exact<{
  input: AddDomainInput;
}>;

export type CliAddDomainMutation = {
  addDomain: { id: string; host: string; port: number | null; https: boolean | null };
};

export type CliRemoveDomainMutationVariables = Exact<{
  id: string | number;
  host: string;
}>;

export type CliRemoveDomainMutation = { removeDomain: { id: string; domains: Array<{ host: string }> } };

export type CliCreateApplicationMutationVariables = Exact<{
  input: CreateApplicationInput;
}>;

export type CliCreateApplicationMutation = {
  createApplication: {
    id: string;
    name: string;
    appName: string;
    port: number;
    needsDeployment: boolean;
    environment: { id: string; name: string };
  };
};

export type CliDeleteApplicationMutationVariables = Exact<{
  id: string | number;
}>;

export type CliDeleteApplicationMutation = { deleteApplication: string };

export type CliActiveOrganizationQueryVariables = Exact<{ [key: string]: never }>;

export type CliActiveOrganizationQuery = { viewer: { activeOrganization: { id: string } | null } };

export const CliDeploymentFragmentDoc = {
  kind: "Document",
  definitions: [
    {
      kind: "FragmentDefinition",
      name: { kind: "Name", value: "CliDeployment" },
      typeCondition: { kind: "NamedType", name: { kind: "Name", value: "Deployment" } },
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          { kind: "Field", name: { kind: "Name", value: "id" } },
          { kind: "Field", name: { kind: "Name", value: "status" } },
          { kind: "Field", name: { kind: "Name", value: "title" } },
          { kind: "Field", name: { kind: "Name", value: "trigger" } },
          { kind: "Field", name: { kind: "Name", value: "commitSha" } },
          { kind: "Field", name: { kind: "Name", value: "errorMessage" } },
          { kind: "Field", name: { kind: "Name", value: "createdAt" } },
          { kind: "Field", name: { kind: "Name", value: "startedAt" } },
          { kind: "Field", name: { kind: "Name", value: "finishedAt" } },
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
} as unknown as DocumentNode<CliDeploymentFragment, unknown>;
export const CliImportUpdatesDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "subscription",
      name: { kind: "Name", value: "CliImportUpdates" },
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
                    selections: [
                      { kind: "Field", name: { kind: "Name", value: "id" } },
                      { kind: "Field", name: { kind: "Name", value: "name" } },
                      { kind: "Field", name: { kind: "Name", value: "status" } },
                      { kind: "Field", name: { kind: "Name", value: "projectId" } },
                      { kind: "Field", name: { kind: "Name", value: "databaseId" } },
                      { kind: "Field", name: { kind: "Name", value: "applicationId" } },
                      { kind: "Field", name: { kind: "Name", value: "domainId" } },
                      { kind: "Field", name: { kind: "Name", value: "deploymentId" } },
                      { kind: "Field", name: { kind: "Name", value: "errorStep" } },
                      { kind: "Field", name: { kind: "Name", value: "errorMessage" } },
                      {
                        kind: "Field",
                        name: { kind: "Name", value: "steps" },
                        selectionSet: {
                          kind: "SelectionSet",
                          selections: [
                            { kind: "Field", name: { kind: "Name", value: "step" } },
                            { kind: "Field", name: { kind: "Name", value: "status" } },
                          ],
                        },
                      },
                      {
                        kind: "Field",
                        name: { kind: "Name", value: "deployment" },
                        selectionSet: {
                          kind: "SelectionSet",
                          selections: [
                            { kind: "Field", name: { kind: "Name", value: "id" } },
                            { kind: "Field", name: { kind: "Name", value: "status" } },
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
} as unknown as DocumentNode<CliImportUpdatesSubscription, CliImportUpdatesSubscriptionVariables>;
export const CliImportRecordDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "query",
      name: { kind: "Name", value: "CliImportRecord" },
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
            name: { kind: "Name", value: "siteImport" },
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
                { kind: "Field", name: { kind: "Name", value: "status" } },
                { kind: "Field", name: { kind: "Name", value: "projectId" } },
                { kind: "Field", name: { kind: "Name", value: "databaseId" } },
                { kind: "Field", name: { kind: "Name", value: "applicationId" } },
                { kind: "Field", name: { kind: "Name", value: "domainId" } },
                { kind: "Field", name: { kind: "Name", value: "deploymentId" } },
                { kind: "Field", name: { kind: "Name", value: "errorStep" } },
                { kind: "Field", name: { kind: "Name", value: "errorMessage" } },
                {
                  kind: "Field",
                  name: { kind: "Name", value: "steps" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [
                      { kind: "Field", name: { kind: "Name", value: "step" } },
                      { kind: "Field", name: { kind: "Name", value: "status" } },
                    ],
                  },
                },
                {
                  kind: "Field",
                  name: { kind: "Name", value: "deployment" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [
                      { kind: "Field", name: { kind: "Name", value: "id" } },
                      { kind: "Field", name: { kind: "Name", value: "status" } },
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
} as unknown as DocumentNode<CliImportRecordQuery, CliImportRecordQueryVariables>;
export const CliRetryImportDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "mutation",
      name: { kind: "Name", value: "CliRetryImport" },
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
                { kind: "Field", name: { kind: "Name", value: "projectId" } },
                { kind: "Field", name: { kind: "Name", value: "applicationId" } },
                { kind: "Field", name: { kind: "Name", value: "databaseId" } },
                { kind: "Field", name: { kind: "Name", value: "domainId" } },
                { kind: "Field", name: { kind: "Name", value: "errorStep" } },
                { kind: "Field", name: { kind: "Name", value: "errorMessage" } },
              ],
            },
          },
        ],
      },
    },
  ],
} as unknown as DocumentNode<CliRetryImportMutation, CliRetryImportMutationVariables>;
export const CliRollbackImportDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "mutation",
      name: { kind: "Name", value: "CliRollbackImport" },
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
                value: { kind: "BooleanValue", value: true },
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
} as unknown as DocumentNode<CliRollbackImportMutation, CliRollbackImportMutationVariables>;
export const CliApplicationDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "query",
      name: { kind: "Name", value: "CliApplication" },
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
              ],
            },
          },
        ],
      },
    },
  ],
} as unknown as DocumentNode<CliApplicationQuery, CliApplicationQueryVariables>;
export const CliProjectApplicationsDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "query",
      name: { kind: "Name", value: "CliProjectApplications" },
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
            name: { kind: "Name", value: "project" },
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
                {
                  kind: "Field",
                  name: { kind: "Name", value: "environments" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [
                      { kind: "Field", name: { kind: "Name", value: "name" } },
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
} as unknown as DocumentNode<CliProjectApplicationsQuery, CliProjectApplicationsQueryVariables>;
export const CliProjectsDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "query",
      name: { kind: "Name", value: "CliProjects" },
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
                                  { kind: "Field", name: { kind: "Name", value: "name" } },
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
                  name: { kind: "Name", value: "pageInfo" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [
                      { kind: "Field", name: { kind: "Name", value: "hasNextPage" } },
                      { kind: "Field", name: { kind: "Name", value: "endCursor" } },
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
} as unknown as DocumentNode<CliProjectsQuery, CliProjectsQueryVariables>;
export const CliDeployApplicationDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "mutation",
      name: { kind: "Name", value: "CliDeployApplication" },
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
              selections: [{ kind: "FragmentSpread", name: { kind: "Name", value: "CliDeployment" } }],
            },
          },
        ],
      },
    },
    {
      kind: "FragmentDefinition",
      name: { kind: "Name", value: "CliDeployment" },
      typeCondition: { kind: "NamedType", name: { kind: "Name", value: "Deployment" } },
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          { kind: "Field", name: { kind: "Name", value: "id" } },
          { kind: "Field", name: { kind: "Name", value: "status" } },
          { kind: "Field", name: { kind: "Name", value: "title" } },
          { kind: "Field", name: { kind: "Name", value: "trigger" } },
          { kind: "Field", name: { kind: "Name", value: "commitSha" } },
          { kind: "Field", name: { kind: "Name", value: "errorMessage" } },
          { kind: "Field", name: { kind: "Name", value: "createdAt" } },
          { kind: "Field", name: { kind: "Name", value: "startedAt" } },
          { kind: "Field", name: { kind: "Name", value: "finishedAt" } },
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
} as unknown as DocumentNode<CliDeployApplicationMutation, CliDeployApplicationMutationVariables>;
export const CliDeploymentUpdatesDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "subscription",
      name: { kind: "Name", value: "CliDeploymentUpdates" },
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
                    selections: [{ kind: "FragmentSpread", name: { kind: "Name", value: "CliDeployment" } }],
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
      name: { kind: "Name", value: "CliDeployment" },
      typeCondition: { kind: "NamedType", name: { kind: "Name", value: "Deployment" } },
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          { kind: "Field", name: { kind: "Name", value: "id" } },
          { kind: "Field", name: { kind: "Name", value: "status" } },
          { kind: "Field", name: { kind: "Name", value: "title" } },
          { kind: "Field", name: { kind: "Name", value: "trigger" } },
          { kind: "Field", name: { kind: "Name", value: "commitSha" } },
          { kind: "Field", name: { kind: "Name", value: "errorMessage" } },
          { kind: "Field", name: { kind: "Name", value: "createdAt" } },
          { kind: "Field", name: { kind: "Name", value: "startedAt" } },
          { kind: "Field", name: { kind: "Name", value: "finishedAt" } },
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
} as unknown as DocumentNode<CliDeploymentUpdatesSubscription, CliDeploymentUpdatesSubscriptionVariables>;
export const CliApplicationDeploymentsDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "query",
      name: { kind: "Name", value: "CliApplicationDeployments" },
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
                    selections: [{ kind: "FragmentSpread", name: { kind: "Name", value: "CliDeployment" } }],
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
      name: { kind: "Name", value: "CliDeployment" },
      typeCondition: { kind: "NamedType", name: { kind: "Name", value: "Deployment" } },
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          { kind: "Field", name: { kind: "Name", value: "id" } },
          { kind: "Field", name: { kind: "Name", value: "status" } },
          { kind: "Field", name: { kind: "Name", value: "title" } },
          { kind: "Field", name: { kind: "Name", value: "trigger" } },
          { kind: "Field", name: { kind: "Name", value: "commitSha" } },
          { kind: "Field", name: { kind: "Name", value: "errorMessage" } },
          { kind: "Field", name: { kind: "Name", value: "createdAt" } },
          { kind: "Field", name: { kind: "Name", value: "startedAt" } },
          { kind: "Field", name: { kind: "Name", value: "finishedAt" } },
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
} as unknown as DocumentNode<CliApplicationDeploymentsQuery, CliApplicationDeploymentsQueryVariables>;
export const CliEnvironmentVariablesDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "query",
      name: { kind: "Name", value: "CliEnvironmentVariables" },
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
                { kind: "Field", name: { kind: "Name", value: "needsDeployment" } },
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
      },
    },
  ],
} as unknown as DocumentNode<CliEnvironmentVariablesQuery, CliEnvironmentVariablesQueryVariables>;
export const CliApplicationNamesDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "query",
      name: { kind: "Name", value: "CliApplicationNames" },
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
                  name: { kind: "Name", value: "environmentVariables" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [{ kind: "Field", name: { kind: "Name", value: "key" } }],
                  },
                },
                {
                  kind: "Field",
                  name: { kind: "Name", value: "domains" },
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
} as unknown as DocumentNode<CliApplicationNamesQuery, CliApplicationNamesQueryVariables>;
export const CliSetEnvironmentVariablesDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "mutation",
      name: { kind: "Name", value: "CliSetEnvironmentVariables" },
      variableDefinitions: [
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "id" } },
          type: { kind: "NonNullType", type: { kind: "NamedType", name: { kind: "Name", value: "ID" } } },
        },
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "variables" } },
          type: {
            kind: "ListType",
            type: {
              kind: "NonNullType",
              type: { kind: "NamedType", name: { kind: "Name", value: "EnvironmentVariableInput" } },
            },
          },
        },
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "dotenv" } },
          type: { kind: "NamedType", name: { kind: "Name", value: "String" } },
        },
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "deploy" } },
          type: { kind: "NamedType", name: { kind: "Name", value: "Boolean" } },
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
                value: { kind: "Variable", name: { kind: "Name", value: "id" } },
              },
              {
                kind: "Argument",
                name: { kind: "Name", value: "variables" },
                value: { kind: "Variable", name: { kind: "Name", value: "variables" } },
              },
              {
                kind: "Argument",
                name: { kind: "Name", value: "dotenv" },
                value: { kind: "Variable", name: { kind: "Name", value: "dotenv" } },
              },
              {
                kind: "Argument",
                name: { kind: "Name", value: "deploy" },
                value: { kind: "Variable", name: { kind: "Name", value: "deploy" } },
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
                    selections: [
                      { kind: "Field", name: { kind: "Name", value: "id" } },
                      { kind: "Field", name: { kind: "Name", value: "needsDeployment" } },
                    ],
                  },
                },
                {
                  kind: "Field",
                  name: { kind: "Name", value: "deployment" },
                  selectionSet: {
                    kind: "SelectionSet",
                    selections: [
                      { kind: "Field", name: { kind: "Name", value: "id" } },
                      { kind: "Field", name: { kind: "Name", value: "status" } },
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
} as unknown as DocumentNode<CliSetEnvironmentVariablesMutation, CliSetEnvironmentVariablesMutationVariables>;
export const CliUnsetEnvironmentVariableDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "mutation",
      name: { kind: "Name", value: "CliUnsetEnvironmentVariable" },
      variableDefinitions: [
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "id" } },
          type: { kind: "NonNullType", type: { kind: "NamedType", name: { kind: "Name", value: "ID" } } },
        },
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "key" } },
          type: { kind: "NonNullType", type: { kind: "NamedType", name: { kind: "Name", value: "String" } } },
        },
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "deploy" } },
          type: { kind: "NamedType", name: { kind: "Name", value: "Boolean" } },
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
                value: { kind: "Variable", name: { kind: "Name", value: "id" } },
              },
              {
                kind: "Argument",
                name: { kind: "Name", value: "key" },
                value: { kind: "Variable", name: { kind: "Name", value: "key" } },
              },
              {
                kind: "Argument",
                name: { kind: "Name", value: "deploy" },
                value: { kind: "Variable", name: { kind: "Name", value: "deploy" } },
              },
            ],
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "id" } },
                { kind: "Field", name: { kind: "Name", value: "needsDeployment" } },
              ],
            },
          },
        ],
      },
    },
  ],
} as unknown as DocumentNode<CliUnsetEnvironmentVariableMutation, CliUnsetEnvironmentVariableMutationVariables>;
export const CliAddDomainDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "mutation",
      name: { kind: "Name", value: "CliAddDomain" },
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
                { kind: "Field", name: { kind: "Name", value: "host" } },
                { kind: "Field", name: { kind: "Name", value: "port" } },
                { kind: "Field", name: { kind: "Name", value: "https" } },
              ],
            },
          },
        ],
      },
    },
  ],
} as unknown as DocumentNode<CliAddDomainMutation, CliAddDomainMutationVariables>;
export const CliRemoveDomainDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "mutation",
      name: { kind: "Name", value: "CliRemoveDomain" },
      variableDefinitions: [
        {
          kind: "VariableDefinition",
          variable: { kind: "Variable", name: { kind: "Name", value: "id" } },
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
                value: { kind: "Variable", name: { kind: "Name", value: "id" } },
              },
              {
                kind: "Argument",
                name: { kind: "Name", value: "host" },
                value: { kind: "Variable", name: { kind: "Name", value: "host" } },
              },
            ],
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "id" } },
                {
                  kind: "Field",
                  name: { kind: "Name", value: "domains" },
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
} as unknown as DocumentNode<CliRemoveDomainMutation, CliRemoveDomainMutationVariables>;
export const CliCreateApplicationDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "mutation",
      name: { kind: "Name", value: "CliCreateApplication" },
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
                { kind: "Field", name: { kind: "Name", value: "appName" } },
                { kind: "Field", name: { kind: "Name", value: "port" } },
                { kind: "Field", name: { kind: "Name", value: "needsDeployment" } },
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
              ],
            },
          },
        ],
      },
    },
  ],
} as unknown as DocumentNode<CliCreateApplicationMutation, CliCreateApplicationMutationVariables>;
export const CliDeleteApplicationDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "mutation",
      name: { kind: "Name", value: "CliDeleteApplication" },
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
} as unknown as DocumentNode<CliDeleteApplicationMutation, CliDeleteApplicationMutationVariables>;
export const CliActiveOrganizationDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "query",
      name: { kind: "Name", value: "CliActiveOrganization" },
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
} as unknown as DocumentNode<CliActiveOrganizationQuery, CliActiveOrganizationQueryVariables>;
