/**
 * The GraphQL operations of the `skiff` CLI, as typed documents (GraphQL Code Generator client preset, output in
 * clients/cli/gql/ by `npm run codegen`; `npm run codegen:check` fails when it is stale).
 */
import { graphql } from "./gql/gql.ts";

/** Updates of the caller's imports (no `id`: every import of the key's organization). */
export const ImportUpdatesSubscription = graphql(`
  subscription CliImportUpdates {
    siteImportUpdated {
      importId
      status
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
  subscription CliDeploymentUpdates($applicationId: ID!) {
    deploymentUpdated(applicationId: $applicationId) {
      deploymentId status logLine { at level text }
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
