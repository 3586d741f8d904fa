/**
 * The GraphQL documents of `/projects` (schema/projects.graphql, organizations.graphql, applications.graphql):
 * the organization's plan with its quotas and usage, and the project → environment → application tree.
 */
import { graphql } from "../../gql/index.ts";

export type { ProjectTreeQuery } from "../../gql/graphql.ts";

/** The plan, its quotas (null = unlimited) and the counts the quota checks compare them with. */
export const PLAN_USAGE = graphql(`
  query PlanUsage($id: ID!) {
    organization(id: $id) {
      id name viewerRole
      plan {
        name features
        quotas { projects applications databases domains }
        usage { projects applications databases domains }
      }
    }
  }
`);

/** The tree: projects (100 per page), their environments, applications (status, health, last deployment, domains). */
export const PROJECT_TREE = graphql(`
  query ProjectTree($after: String) {
    projects(first: 100, after: $after) {
      totalCount
      pageInfo { hasNextPage endCursor }
      edges {
        node {
          id name description createdAt
          environments {
            id name
            applications {
              id name appName applicationStatus health healthCheckedAt
              domains { id host https }
              deployments(first: 1) { id status title createdAt finishedAt }
            }
            databases { id name type user serviceHost createdAt }
          }
        }
      }
    }
  }
`);

/** Creates an environment in a project (owners, admins). */
export const CREATE_ENVIRONMENT = graphql(`
  mutation CreateEnvironment($projectId: ID!, $name: String!) { createEnvironment(projectId: $projectId, name: $name) { id name } }
`);
/** Deletes an empty environment (`CONFLICT` while it holds applications or databases, or for the last one). */
export const DELETE_ENVIRONMENT = graphql(`
  mutation DeleteEnvironment($id: ID!) { deleteEnvironment(id: $id) }
`);
/** Creates an application in an environment (owners, admins; the plan's `applications` quota). */
export const CREATE_APPLICATION = graphql(`
  mutation CreateApplication($input: CreateApplicationInput!) { createApplication(input: $input) { id name } }
`);
/** Deletes an application with its domains, variables and deployments. */
export const DELETE_APPLICATION = graphql(`
  mutation DeleteApplication($id: ID!) { deleteApplication(id: $id) }
`);
/** Renames an environment (owners, admins; `CONFLICT` when the project has one of that name). */
export const RENAME_ENVIRONMENT = graphql(`
  mutation RenameEnvironment($id: ID!, $name: String!) { renameEnvironment(id: $id, name: $name) { id name } }
`);
/** Creates a database (owners, admins; the plan's `databases` quota); a generated password is answered once. */
export const CREATE_DATABASE = graphql(`
  mutation CreateDatabase($input: CreateDatabaseInput!) {
    createDatabase(input: $input) { database { id name } applications { id } generatedPassword }
  }
`);
/** Replaces a database's password with a generated one, answered once; the derived variables follow. */
export const ROTATE_DATABASE_PASSWORD = graphql(`
  mutation RotateDatabasePassword($id: ID!) {
    rotateDatabasePassword(id: $id) { database { id } applications { id name } generatedPassword }
  }
`);
/** Deletes a database; its automatic variables leave the applications still holding them. */
export const DELETE_DATABASE = graphql(`
  mutation DeleteDatabase($id: ID!) { deleteDatabase(id: $id) { id affectedApplications { id name } } }
`);
