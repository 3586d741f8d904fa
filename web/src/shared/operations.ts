/**
 * The GraphQL documents every page shares (schema/organizations.graphql): the viewer with their organizations, and
 * switching or creating an organization. `graphql()` comes from GraphQL Code Generator's client preset
 * (`npm run codegen` writes web/src/gql/): each document is typed with its result and variables.
 */
import { graphql } from "../gql/index.ts";

export const VIEWER = graphql(`
  query Viewer {
    viewer {
      user { id email name twoFactorEnabled }
      activeOrganization { id name }
      role
    }
    organizations { id name viewerRole plan { name } }
  }
`);

export const SET_ACTIVE_ORGANIZATION = graphql(`
  mutation SetActiveOrganization($id: ID!) {
    setActiveOrganization(id: $id) { activeOrganization { id } }
  }
`);

export const CREATE_ORGANIZATION = graphql(`
  mutation CreateOrganization($input: CreateOrganizationInput!) {
    createOrganization(input: $input) { id name }
  }
`);
