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
      siteImport { id name status projectId databaseId applicationId domainId deploymentId errorStep errorMessage deployment { id status } }
    }
  }
`);

/** One import record with its deployment's status. */
export const ImportRecordQuery = graphql(`
  query CliImportRecord($id: ID!) {
    siteImport(id: $id) { id name status projectId databaseId applicationId domainId deploymentId errorStep errorMessage deployment { id status } }
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
