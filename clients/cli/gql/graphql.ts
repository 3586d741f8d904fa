/* eslint-disable */
/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends " $fragmentName" | "__typename" ? T[P] : never };
import type { TypedDocumentNode as DocumentNode } from "@graphql-typed-document-node/core";
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

export type CliImportUpdatesSubscriptionVariables = Exact<{ [key: string]: never }>;

export type CliImportUpdatesSubscription = {
  siteImportUpdated: {
    importId: string;
    status: SiteImportUpdateStatus;
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

export const CliImportUpdatesDocument = {
  kind: "Document",
  definitions: [
    {
      kind: "OperationDefinition",
      operation: "subscription",
      name: { kind: "Name", value: "CliImportUpdates" },
      selectionSet: {
        kind: "SelectionSet",
        selections: [
          {
            kind: "Field",
            name: { kind: "Name", value: "siteImportUpdated" },
            selectionSet: {
              kind: "SelectionSet",
              selections: [
                { kind: "Field", name: { kind: "Name", value: "importId" } },
                { kind: "Field", name: { kind: "Name", value: "status" } },
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
