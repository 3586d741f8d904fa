/* eslint-disable */
import * as types from "./graphql.ts";
import type { TypedDocumentNode as DocumentNode } from "@graphql-typed-document-node/core";

/**
 * Map of all GraphQL operations in the project.
 *
 * This map has several performance disadvantages:
 * 1. It is not tree-shakeable, so it will include all operations in the project.
 * 2. It is not minifiable, so the string of a GraphQL query will be multiple times inside the bundle.
 * 3. It does not support dead code elimination, so it will add unused operations.
 *
 * Therefore it is highly recommended to use the babel or swc plugin for production.
 * Learn more about it here: https://the-guild.dev/graphql/codegen/plugins/presets/preset-client#reducing-bundle-size
 */
type Documents = {
  "\n  subscription CliImportUpdates($after: String) {\n    siteImportUpdated(after: $after) {\n      importId\n      status\n      cursor\n      siteImport { id name status projectId databaseId applicationId domainId deploymentId errorStep errorMessage steps { step status } deployment { id status } }\n    }\n  }\n": typeof types.CliImportUpdatesDocument;
  "\n  query CliImportRecord($id: ID!) {\n    siteImport(id: $id) { id name status projectId databaseId applicationId domainId deploymentId errorStep errorMessage steps { step status } deployment { id status } }\n  }\n": typeof types.CliImportRecordDocument;
  "\n  mutation CliRetryImport($id: ID!) {\n    retrySiteImport(id: $id) { importId status projectId applicationId databaseId domainId errorStep errorMessage }\n  }\n": typeof types.CliRetryImportDocument;
  "\n  mutation CliRollbackImport($id: ID!) {\n    deleteSiteImport(id: $id, rollbackResources: true) { id rolledBack deletedProjectId }\n  }\n": typeof types.CliRollbackImportDocument;
  "\n  fragment CliDeployment on Deployment {\n    id status title trigger commitSha errorMessage createdAt startedAt finishedAt\n    logs { at level text }\n  }\n": typeof types.CliDeploymentFragmentDoc;
  "\n  query CliApplication($id: ID!) {\n    application(id: $id) { id name project { id name } }\n  }\n": typeof types.CliApplicationDocument;
  "\n  query CliProjectApplications($id: ID!) {\n    project(id: $id) { id name environments { name applications { id name } } }\n  }\n": typeof types.CliProjectApplicationsDocument;
  "\n  query CliProjects($after: String) {\n    projects(first: 100, after: $after) {\n      edges { node { id name environments { name applications { id name } } } }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n": typeof types.CliProjectsDocument;
  "\n  mutation CliDeployApplication($applicationId: ID!, $title: String) {\n    deployApplication(applicationId: $applicationId, title: $title) { ...CliDeployment }\n  }\n": typeof types.CliDeployApplicationDocument;
  "\n  subscription CliDeploymentUpdates($applicationId: ID!, $after: String) {\n    deploymentUpdated(applicationId: $applicationId, after: $after) {\n      deploymentId status cursor logLine { at level text }\n      deployment { ...CliDeployment }\n    }\n  }\n": typeof types.CliDeploymentUpdatesDocument;
  "\n  query CliApplicationDeployments($id: ID!) {\n    application(id: $id) { id deployments(first: 50) { ...CliDeployment } }\n  }\n": typeof types.CliApplicationDeploymentsDocument;
  "\n  query CliEnvironmentVariables($id: ID!) {\n    application(id: $id) { id name needsDeployment environmentVariables { key value } }\n  }\n": typeof types.CliEnvironmentVariablesDocument;
  "\n  query CliApplicationNames($id: ID!) {\n    application(id: $id) { id environmentVariables { key } domains { host } }\n  }\n": typeof types.CliApplicationNamesDocument;
  "\n  mutation CliSetEnvironmentVariables($id: ID!, $variables: [EnvironmentVariableInput!], $dotenv: String, $deploy: Boolean) {\n    setEnvironmentVariables(applicationId: $id, variables: $variables, dotenv: $dotenv, deploy: $deploy) {\n      setKeys application { id needsDeployment } deployment { id status }\n    }\n  }\n": typeof types.CliSetEnvironmentVariablesDocument;
  "\n  mutation CliUnsetEnvironmentVariable($id: ID!, $key: String!, $deploy: Boolean) {\n    unsetEnvironmentVariable(applicationId: $id, key: $key, deploy: $deploy) { id needsDeployment }\n  }\n": typeof types.CliUnsetEnvironmentVariableDocument;
  "\n  mutation CliAddDomain($input: AddDomainInput!) {\n    addDomain(input: $input) { id host port https }\n  }\n": typeof types.CliAddDomainDocument;
  "\n  mutation CliRemoveDomain($id: ID!, $host: String!) {\n    removeDomain(applicationId: $id, host: $host) { id domains { host } }\n  }\n": typeof types.CliRemoveDomainDocument;
  "\n  mutation CliCreateApplication($input: CreateApplicationInput!) {\n    createApplication(input: $input) { id name appName port needsDeployment environment { id name } }\n  }\n": typeof types.CliCreateApplicationDocument;
  "\n  mutation CliDeleteApplication($id: ID!) {\n    deleteApplication(id: $id)\n  }\n": typeof types.CliDeleteApplicationDocument;
  "\n  query CliActiveOrganization {\n    viewer { activeOrganization { id } }\n  }\n": typeof types.CliActiveOrganizationDocument;
};
const documents: Documents = {
  "\n  subscription CliImportUpdates($after: String) {\n    siteImportUpdated(after: $after) {\n      importId\n      status\n      cursor\n      siteImport { id name status projectId databaseId applicationId domainId deploymentId errorStep errorMessage steps { step status } deployment { id status } }\n    }\n  }\n":
    types.CliImportUpdatesDocument,
  "\n  query CliImportRecord($id: ID!) {\n    siteImport(id: $id) { id name status projectId databaseId applicationId domainId deploymentId errorStep errorMessage steps { step status } deployment { id status } }\n  }\n":
    types.CliImportRecordDocument,
  "\n  mutation CliRetryImport($id: ID!) {\n    retrySiteImport(id: $id) { importId status projectId applicationId databaseId domainId errorStep errorMessage }\n  }\n":
    types.CliRetryImportDocument,
  "\n  mutation CliRollbackImport($id: ID!) {\n    deleteSiteImport(id: $id, rollbackResources: true) { id rolledBack deletedProjectId }\n  }\n":
    types.CliRollbackImportDocument,
  "\n  fragment CliDeployment on Deployment {\n    id status title trigger commitSha errorMessage createdAt startedAt finishedAt\n    logs { at level text }\n  }\n":
    types.CliDeploymentFragmentDoc,
  "\n  query CliApplication($id: ID!) {\n    application(id: $id) { id name project { id name } }\n  }\n":
    types.CliApplicationDocument,
  "\n  query CliProjectApplications($id: ID!) {\n    project(id: $id) { id name environments { name applications { id name } } }\n  }\n":
    types.CliProjectApplicationsDocument,
  "\n  query CliProjects($after: String) {\n    projects(first: 100, after: $after) {\n      edges { node { id name environments { name applications { id name } } } }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n":
    types.CliProjectsDocument,
  "\n  mutation CliDeployApplication($applicationId: ID!, $title: String) {\n    deployApplication(applicationId: $applicationId, title: $title) { ...CliDeployment }\n  }\n":
    types.CliDeployApplicationDocument,
  "\n  subscription CliDeploymentUpdates($applicationId: ID!, $after: String) {\n    deploymentUpdated(applicationId: $applicationId, after: $after) {\n      deploymentId status cursor logLine { at level text }\n      deployment { ...CliDeployment }\n    }\n  }\n":
    types.CliDeploymentUpdatesDocument,
  "\n  query CliApplicationDeployments($id: ID!) {\n    application(id: $id) { id deployments(first: 50) { ...CliDeployment } }\n  }\n":
    types.CliApplicationDeploymentsDocument,
  "\n  query CliEnvironmentVariables($id: ID!) {\n    application(id: $id) { id name needsDeployment environmentVariables { key value } }\n  }\n":
    types.CliEnvironmentVariablesDocument,
  "\n  query CliApplicationNames($id: ID!) {\n    application(id: $id) { id environmentVariables { key } domains { host } }\n  }\n":
    types.CliApplicationNamesDocument,
  "\n  mutation CliSetEnvironmentVariables($id: ID!, $variables: [EnvironmentVariableInput!], $dotenv: String, $deploy: Boolean) {\n    setEnvironmentVariables(applicationId: $id, variables: $variables, dotenv: $dotenv, deploy: $deploy) {\n      setKeys application { id needsDeployment } deployment { id status }\n    }\n  }\n":
    types.CliSetEnvironmentVariablesDocument,
  "\n  mutation CliUnsetEnvironmentVariable($id: ID!, $key: String!, $deploy: Boolean) {\n    unsetEnvironmentVariable(applicationId: $id, key: $key, deploy: $deploy) { id needsDeployment }\n  }\n":
    types.CliUnsetEnvironmentVariableDocument,
  "\n  mutation CliAddDomain($input: AddDomainInput!) {\n    addDomain(input: $input) { id host port https }\n  }\n":
    types.CliAddDomainDocument,
  "\n  mutation CliRemoveDomain($id: ID!, $host: String!) {\n    removeDomain(applicationId: $id, host: $host) { id domains { host } }\n  }\n":
    types.CliRemoveDomainDocument,
  "\n  mutation CliCreateApplication($input: CreateApplicationInput!) {\n    createApplication(input: $input) { id name appName port needsDeployment environment { id name } }\n  }\n":
    types.CliCreateApplicationDocument,
  "\n  mutation CliDeleteApplication($id: ID!) {\n    deleteApplication(id: $id)\n  }\n":
    types.CliDeleteApplicationDocument,
  "\n  query CliActiveOrganization {\n    viewer { activeOrganization { id } }\n  }\n":
    types.CliActiveOrganizationDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 *
 *
 * @example
 * ```ts
 * const query = graphql(`query GetUser($id: ID!) { user(id: $id) { name } }`);
 * ```
 *
 * The query argument is unknown!
 * Please regenerate the types.
 */
export function graphql(source: string): unknown;

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  subscription CliImportUpdates($after: String) {\n    siteImportUpdated(after: $after) {\n      importId\n      status\n      cursor\n      siteImport { id name status projectId databaseId applicationId domainId deploymentId errorStep errorMessage steps { step status } deployment { id status } }\n    }\n  }\n",
): (typeof documents)["\n  subscription CliImportUpdates($after: String) {\n    siteImportUpdated(after: $after) {\n      importId\n      status\n      cursor\n      siteImport { id name status projectId databaseId applicationId domainId deploymentId errorStep errorMessage steps { step status } deployment { id status } }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  query CliImportRecord($id: ID!) {\n    siteImport(id: $id) { id name status projectId databaseId applicationId domainId deploymentId errorStep errorMessage steps { step status } deployment { id status } }\n  }\n",
): (typeof documents)["\n  query CliImportRecord($id: ID!) {\n    siteImport(id: $id) { id name status projectId databaseId applicationId domainId deploymentId errorStep errorMessage steps { step status } deployment { id status } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  mutation CliRetryImport($id: ID!) {\n    retrySiteImport(id: $id) { importId status projectId applicationId databaseId domainId errorStep errorMessage }\n  }\n",
): (typeof documents)["\n  mutation CliRetryImport($id: ID!) {\n    retrySiteImport(id: $id) { importId status projectId applicationId databaseId domainId errorStep errorMessage }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  mutation CliRollbackImport($id: ID!) {\n    deleteSiteImport(id: $id, rollbackResources: true) { id rolledBack deletedProjectId }\n  }\n",
): (typeof documents)["\n  mutation CliRollbackImport($id: ID!) {\n    deleteSiteImport(id: $id, rollbackResources: true) { id rolledBack deletedProjectId }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  fragment CliDeployment on Deployment {\n    id status title trigger commitSha errorMessage createdAt startedAt finishedAt\n    logs { at level text }\n  }\n",
): (typeof documents)["\n  fragment CliDeployment on Deployment {\n    id status title trigger commitSha errorMessage createdAt startedAt finishedAt\n    logs { at level text }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  query CliApplication($id: ID!) {\n    application(id: $id) { id name project { id name } }\n  }\n",
): (typeof documents)["\n  query CliApplication($id: ID!) {\n    application(id: $id) { id name project { id name } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  query CliProjectApplications($id: ID!) {\n    project(id: $id) { id name environments { name applications { id name } } }\n  }\n",
): (typeof documents)["\n  query CliProjectApplications($id: ID!) {\n    project(id: $id) { id name environments { name applications { id name } } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  query CliProjects($after: String) {\n    projects(first: 100, after: $after) {\n      edges { node { id name environments { name applications { id name } } } }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n",
): (typeof documents)["\n  query CliProjects($after: String) {\n    projects(first: 100, after: $after) {\n      edges { node { id name environments { name applications { id name } } } }\n      pageInfo { hasNextPage endCursor }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  mutation CliDeployApplication($applicationId: ID!, $title: String) {\n    deployApplication(applicationId: $applicationId, title: $title) { ...CliDeployment }\n  }\n",
): (typeof documents)["\n  mutation CliDeployApplication($applicationId: ID!, $title: String) {\n    deployApplication(applicationId: $applicationId, title: $title) { ...CliDeployment }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  subscription CliDeploymentUpdates($applicationId: ID!, $after: String) {\n    deploymentUpdated(applicationId: $applicationId, after: $after) {\n      deploymentId status cursor logLine { at level text }\n      deployment { ...CliDeployment }\n    }\n  }\n",
): (typeof documents)["\n  subscription CliDeploymentUpdates($applicationId: ID!, $after: String) {\n    deploymentUpdated(applicationId: $applicationId, after: $after) {\n      deploymentId status cursor logLine { at level text }\n      deployment { ...CliDeployment }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  query CliApplicationDeployments($id: ID!) {\n    application(id: $id) { id deployments(first: 50) { ...CliDeployment } }\n  }\n",
): (typeof documents)["\n  query CliApplicationDeployments($id: ID!) {\n    application(id: $id) { id deployments(first: 50) { ...CliDeployment } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  query CliEnvironmentVariables($id: ID!) {\n    application(id: $id) { id name needsDeployment environmentVariables { key value } }\n  }\n",
): (typeof documents)["\n  query CliEnvironmentVariables($id: ID!) {\n    application(id: $id) { id name needsDeployment environmentVariables { key value } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  query CliApplicationNames($id: ID!) {\n    application(id: $id) { id environmentVariables { key } domains { host } }\n  }\n",
): (typeof documents)["\n  query CliApplicationNames($id: ID!) {\n    application(id: $id) { id environmentVariables { key } domains { host } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  mutation CliSetEnvironmentVariables($id: ID!, $variables: [EnvironmentVariableInput!], $dotenv: String, $deploy: Boolean) {\n    setEnvironmentVariables(applicationId: $id, variables: $variables, dotenv: $dotenv, deploy: $deploy) {\n      setKeys application { id needsDeployment } deployment { id status }\n    }\n  }\n",
): (typeof documents)["\n  mutation CliSetEnvironmentVariables($id: ID!, $variables: [EnvironmentVariableInput!], $dotenv: String, $deploy: Boolean) {\n    setEnvironmentVariables(applicationId: $id, variables: $variables, dotenv: $dotenv, deploy: $deploy) {\n      setKeys application { id needsDeployment } deployment { id status }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  mutation CliUnsetEnvironmentVariable($id: ID!, $key: String!, $deploy: Boolean) {\n    unsetEnvironmentVariable(applicationId: $id, key: $key, deploy: $deploy) { id needsDeployment }\n  }\n",
): (typeof documents)["\n  mutation CliUnsetEnvironmentVariable($id: ID!, $key: String!, $deploy: Boolean) {\n    unsetEnvironmentVariable(applicationId: $id, key: $key, deploy: $deploy) { id needsDeployment }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  mutation CliAddDomain($input: AddDomainInput!) {\n    addDomain(input: $input) { id host port https }\n  }\n",
): (typeof documents)["\n  mutation CliAddDomain($input: AddDomainInput!) {\n    addDomain(input: $input) { id host port https }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  mutation CliRemoveDomain($id: ID!, $host: String!) {\n    removeDomain(applicationId: $id, host: $host) { id domains { host } }\n  }\n",
): (typeof documents)["\n  mutation CliRemoveDomain($id: ID!, $host: String!) {\n    removeDomain(applicationId: $id, host: $host) { id domains { host } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  mutation CliCreateApplication($input: CreateApplicationInput!) {\n    createApplication(input: $input) { id name appName port needsDeployment environment { id name } }\n  }\n",
): (typeof documents)["\n  mutation CliCreateApplication($input: CreateApplicationInput!) {\n    createApplication(input: $input) { id name appName port needsDeployment environment { id name } }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  mutation CliDeleteApplication($id: ID!) {\n    deleteApplication(id: $id)\n  }\n",
): (typeof documents)["\n  mutation CliDeleteApplication($id: ID!) {\n    deleteApplication(id: $id)\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  query CliActiveOrganization {\n    viewer { activeOrganization { id } }\n  }\n",
): (typeof documents)["\n  query CliActiveOrganization {\n    viewer { activeOrganization { id } }\n  }\n"];

export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}

export type DocumentType<TDocumentNode extends DocumentNode<any, any>> =
  TDocumentNode extends DocumentNode<infer TType, any> ? TType : never;
