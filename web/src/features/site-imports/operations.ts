/**
 * The GraphQL documents of the imports page (schema/site-imports.graphql, schema/providers.graphql): the import list with
 * its live updates, the form's prerequisites, preview and import, retry and delete. Typed by the codegen client
 * preset (`npm run codegen`).
 */
import { graphql } from "../../gql/index.ts";

export type { SiteImportRowFragment as SiteImportRow, SiteImportStatus as ImportStatus } from "../../gql/graphql.ts";

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
  subscription SiteImportUpdated($after: String) {
    siteImportUpdated(after: $after) { importId status cursor siteImport { ...SiteImportRow } }
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
