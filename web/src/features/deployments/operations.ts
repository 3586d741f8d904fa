/**
 * The GraphQL documents of the deploy pages (schema/deployments.graphql, schema/applications.graphql,
 * schema/projects.graphql): the application tree, one application's deploy settings, its deployments with their
 * live updates, and the deploy mutations. Typed by the codegen client preset (`npm run codegen`).
 */
import { graphql } from "../../gql/index.ts";

export type {
  DeploymentRowFragment as DeploymentRow,
  DeploySettingsFieldsFragment as DeploySettingsFields,
} from "../../gql/graphql.ts";

/** Projects (first 100) → environments → applications of the active organization, with the viewer's role. */
export const APPLICATION_TREE = graphql(`
  query ApplicationTree($organizationId: ID!) {
    organization(id: $organizationId) {
      id
      name
      viewerRole
      projects(first: 100) {
        totalCount
        edges {
          node {
            id
            name
            environments {
              id
              name
              applications { id name appName applicationStatus sourceType }
            }
          }
        }
      }
    }
  }
`);

export const DEPLOY_SETTINGS_FIELDS = graphql(`
  fragment DeploySettingsFields on DeploySettings {
    autoDeploy branchFilter watchPaths requireSignature hasWebhookSecret healthPath
  }
`);

/** One application's deploy settings (`deployWebhookUrl` is null for members). */
export const APPLICATION_DEPLOY_SETTINGS = graphql(`
  query ApplicationDeploySettings($id: ID!) {
    application(id: $id) {
      id
      name
      appName
      sourceType
      source { branch repo dockerImage }
      project { id name }
      environment { id name }
      deployWebhookUrl
      deploySettings { ...DeploySettingsFields }
    }
  }
`);

export const REGENERATE_DEPLOY_TOKEN = graphql(`
  mutation RegenerateDeployToken($applicationId: ID!) { regenerateDeployToken(applicationId: $applicationId) }
`);
export const REGENERATE_DEPLOY_WEBHOOK_SECRET = graphql(`
  mutation RegenerateDeployWebhookSecret($applicationId: ID!) {
    regenerateDeployWebhookSecret(applicationId: $applicationId)
  }
`);
export const UPDATE_DEPLOY_SETTINGS = graphql(`
  mutation UpdateDeploySettings($applicationId: ID!, $input: DeploySettingsInput!) {
    updateDeploySettings(applicationId: $applicationId, input: $input) { ...DeploySettingsFields }
  }
`);

export const DEPLOYMENT_ROW = graphql(`
  fragment DeploymentRow on Deployment {
    id status title description trigger commitSha errorMessage createdAt startedAt finishedAt
  }
`);

/** The application page: the application and its newest deployments (at most 50). */
export const APPLICATION_DEPLOYMENTS = graphql(`
  query ApplicationDeployments($id: ID!, $organizationId: ID!) {
    organization(id: $organizationId) { id viewerRole }
    application(id: $id) {
      id
      name
      appName
      applicationStatus
      health
      healthCheckedAt
      sourceType
      source { branch repo dockerImage }
      project { id name }
      environment { id name }
      domains { id host https }
      deployments(first: 50) { ...DeploymentRow }
    }
  }
`);

/**
 * The logs of the application's `first` newest deployments (the page asks for as many as reach the selected one,
 * usually 1: the schema has no single-deployment query).
 */
export const DEPLOYMENT_LOGS = graphql(`
  query DeploymentLogs($id: ID!, $first: Int!) {
    application(id: $id) {
      id
      deployments(first: $first) { id logs { at level text } }
    }
  }
`);

export const DEPLOYMENT_UPDATED = graphql(`
  subscription DeploymentUpdated($applicationId: ID!, $after: String) {
    deploymentUpdated(applicationId: $applicationId, after: $after) {
      deploymentId
      status
      cursor
      logLine { at level text }
      deployment { ...DeploymentRow }
    }
  }
`);

export const DEPLOY_APPLICATION = graphql(`
  mutation DeployApplication($applicationId: ID!, $title: String) {
    deployApplication(applicationId: $applicationId, title: $title) { ...DeploymentRow }
  }
`);
export const CANCEL_DEPLOYMENT = graphql(`
  mutation CancelDeployment($id: ID!) { cancelDeployment(id: $id) { ...DeploymentRow } }
`);
export const REDEPLOY_DEPLOYMENT = graphql(`
  mutation RedeployDeployment($id: ID!) { redeployDeployment(id: $id) { ...DeploymentRow } }
`);

/** The organization an application belongs to (a deep link's application may be in another of the person's). */
export const APPLICATION_ORGANIZATION = graphql(`
  query ApplicationOrganization($id: ID!) {
    application(id: $id) { id project { id organization { id name } } }
  }
`);
