/**
 * The GraphQL documents of the application page's management sections (schema/applications.graphql): variables
 * (set, unset, `.env` paste), domains (add, remove) and settings (`updateApplication`). Each mutation returns the
 * changed application (or domain) so urql's cache and the page update. Typed by `npm run codegen`.
 */
import { graphql } from "../../gql/index.ts";

export type { ApplicationManageFieldsFragment as ApplicationManageFields } from "../../gql/graphql.ts";

/** What the management sections show of an application. */
export const APPLICATION_MANAGE_FIELDS = graphql(`
  fragment ApplicationManageFields on Application {
    id
    name
    needsDeployment
    sourceType
    buildType
    port
    source { type repo branch buildPath dockerImage customGitUrl }
    deploySettings { healthPath }
    domains { id host port https createdAt }
    environmentVariables { key value }
  }
`);

/** The application's management fields (read by the application page). */
export const APPLICATION_MANAGE = graphql(`
  query ApplicationManage($id: ID!) {
    application(id: $id) { ...ApplicationManageFields }
  }
`);

export const SET_ENVIRONMENT_VARIABLE = graphql(`
  mutation SetEnvironmentVariable($applicationId: ID!, $key: String!, $value: String!) {
    setEnvironmentVariable(applicationId: $applicationId, key: $key, value: $value) { ...ApplicationManageFields }
  }
`);
export const SET_ENVIRONMENT_VARIABLES = graphql(`
  mutation PasteEnvironmentVariables($applicationId: ID!, $dotenv: String!) {
    setEnvironmentVariables(applicationId: $applicationId, dotenv: $dotenv) {
      setKeys
      application { ...ApplicationManageFields }
    }
  }
`);
export const UNSET_ENVIRONMENT_VARIABLE = graphql(`
  mutation UnsetEnvironmentVariable($applicationId: ID!, $key: String!) {
    unsetEnvironmentVariable(applicationId: $applicationId, key: $key) { ...ApplicationManageFields }
  }
`);

export const ADD_DOMAIN = graphql(`
  mutation AddDomain($input: AddDomainInput!) {
    addDomain(input: $input) { id application { ...ApplicationManageFields } }
  }
`);
export const REMOVE_DOMAIN = graphql(`
  mutation RemoveDomain($applicationId: ID!, $host: String!) {
    removeDomain(applicationId: $applicationId, host: $host) { ...ApplicationManageFields }
  }
`);

export const UPDATE_APPLICATION = graphql(`
  mutation UpdateApplication($id: ID!, $input: UpdateApplicationInput!) {
    updateApplication(id: $id, input: $input) { ...ApplicationManageFields }
  }
`);
export const UPDATE_DOMAIN = graphql(`
  mutation UpdateDomain($id: ID!, $input: UpdateDomainInput!) {
    updateDomain(id: $id, input: $input) { id port https application { ...ApplicationManageFields } }
  }
`);
