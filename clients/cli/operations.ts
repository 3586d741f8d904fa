/**
 * The GraphQL operations of the `skiff` CLI, as typed documents (GraphQL Code Generator client preset, output in
 * clients/cli/gql/ by `npm run codegen`; `npm run codegen:check` fails when it is stale).
 */
import { graphql } from "./gql/gql.ts";

/** Updates of the caller's imports (no `id`: every import of the key's organization). */
export const ImportUpdatesSubscription = graphql(`
  subscription CliImportUpdates($after: String) {
    siteImportUpdated(after: $after) {
      importId
      status
      cursor
      siteImport { id name status projectId databaseId applicationId domainId deploymentId errorStep errorMessage steps { step status } deployment { id status } }
    }
  }
`);

/** One import record with its deployment's status. */
export const ImportRecordQuery = graphql(`
  query CliImportRecord($id: ID!) {
    siteImport(id: $id) { id name status projectId databaseId applicationId domainId deploymentId errorStep errorMessage steps { step status } deployment { id status } }
  }
`);

/** Re-runs a partial or failed import. */
export const RetryImportMutation = graphql(`
  mutation CliRetryImport($id: ID!) {
    retrySiteImport(id: $id) { importId status projectId applicationId databaseId domainId errorStep errorMessage }
  }
`);

/** Deletes an import with the resources it created. */
export const RollbackImportMutation = graphql(`
  mutation CliRollbackImport($id: ID!) {
    deleteSiteImport(id: $id, rollbackResources: true) { id rolledBack deletedProjectId }
  }
`);

/** What `skiff deploy` shows of a deployment. */
export const DeploymentFields = graphql(`
  fragment CliDeployment on Deployment {
    id status title trigger commitSha errorMessage createdAt startedAt finishedAt
    logs { at level text }
  }
`);

/** An application by id (to check it is visible and name it). */
export const ApplicationQuery = graphql(`
  query CliApplication($id: ID!) {
    application(id: $id) { id name project { id name } }
  }
`);

/** A project's applications by environment (resolving `skiff deploy <name> --project <prj_…>`). */
export const ProjectApplicationsQuery = graphql(`
  query CliProjectApplications($id: ID!) {
    project(id: $id) { id name environments { name applications { id name } } }
  }
`);

/** One page of projects with their applications (resolving `--project <name>`). */
export const ProjectsQuery = graphql(`
  query CliProjects($after: String) {
    projects(first: 100, after: $after) {
      edges { node { id name environments { name applications { id name } } } }
      pageInfo { hasNextPage endCursor }
    }
  }
`);

/** Queues a deployment of an application. */
export const DeployApplicationMutation = graphql(`
  mutation CliDeployApplication($applicationId: ID!, $title: String) {
    deployApplication(applicationId: $applicationId, title: $title) { ...CliDeployment }
  }
`);

/** Status changes and log lines of an application's deployments, each with the deployment as it is now. */
export const DeploymentUpdatesSubscription = graphql(`
  subscription CliDeploymentUpdates($applicationId: ID!, $after: String) {
    deploymentUpdated(applicationId: $applicationId, after: $after) {
      deploymentId status cursor logLine { at level text }
      deployment { ...CliDeployment }
    }
  }
`);

/** The latest deployments of an application (catching up when no update arrives). */
export const ApplicationDeploymentsQuery = graphql(`
  query CliApplicationDeployments($id: ID!) {
    application(id: $id) { id deployments(first: 50) { ...CliDeployment } }
  }
`);

/** An application's variables (`skiff env list`). */
export const EnvironmentVariablesQuery = graphql(`
  query CliEnvironmentVariables($id: ID!) {
    application(id: $id) { id name needsDeployment environmentVariables { key value } }
  }
`);

/** An application's variable names and domain hosts, no values (`env unset` and `domains remove` tell what was there). */
export const ApplicationNamesQuery = graphql(`
  query CliApplicationNames($id: ID!) {
    application(id: $id) { id environmentVariables { key } domains { host } }
  }
`);

/** Sets variables from pairs or a `.env` text (`skiff env set`). */
export const SetEnvironmentVariablesMutation = graphql(`
  mutation CliSetEnvironmentVariables($id: ID!, $variables: [EnvironmentVariableInput!], $dotenv: String, $deploy: Boolean) {
    setEnvironmentVariables(applicationId: $id, variables: $variables, dotenv: $dotenv, deploy: $deploy) {
      setKeys application { id needsDeployment } deployment { id status }
    }
  }
`);

/** Removes one variable (`skiff env unset`). */
export const UnsetEnvironmentVariableMutation = graphql(`
  mutation CliUnsetEnvironmentVariable($id: ID!, $key: String!, $deploy: Boolean) {
    unsetEnvironmentVariable(applicationId: $id, key: $key, deploy: $deploy) { id needsDeployment }
  }
`);

/** Routes a host to an application (`skiff domains add`). */
export const AddDomainMutation = graphql(`
  mutation CliAddDomain($input: AddDomainInput!) {
    addDomain(input: $input) { id host port https }
  }
`);

/** Removes a host from an application (`skiff domains remove`). */
export const RemoveDomainMutation = graphql(`
  mutation CliRemoveDomain($id: ID!, $host: String!) {
    removeDomain(applicationId: $id, host: $host) { id domains { host } }
  }
`);

/** Creates an application in an environment (`skiff apps create`). */
export const CreateApplicationMutation = graphql(`
  mutation CliCreateApplication($input: CreateApplicationInput!) {
    createApplication(input: $input) { id name appName port needsDeployment environment { id name } }
  }
`);

/** Deletes an application (`skiff apps delete`). */
export const DeleteApplicationMutation = graphql(`
  mutation CliDeleteApplication($id: ID!) {
    deleteApplication(id: $id)
  }
`);

/** The organization the API key acts in (the default of `skiff export`). */
export const ActiveOrganizationQuery = graphql(`
  query CliActiveOrganization {
    viewer { activeOrganization { id } }
  }
`);
