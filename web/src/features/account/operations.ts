/** GraphQL documents of the account page (schema/team.graphql). */
import { graphql } from "../../gql/index.ts";

export const LEAVE_ORGANIZATION = graphql(`
  mutation LeaveOrganization($organizationId: ID!) {
    leaveOrganization(organizationId: $organizationId)
  }
`);
