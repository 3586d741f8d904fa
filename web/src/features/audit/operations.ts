/**
 * The GraphQL document of the audit log page (schema/audit.graphql): one filtered page of the active organization's
 * entries, newest first. Typed by the codegen client preset (`npm run codegen`).
 */
import { graphql } from "../../gql/index.ts";

export const AUDIT_EVENTS = graphql(`
  query AuditEvents($action: String, $actor: ID, $target: ID, $since: DateTime, $until: DateTime, $after: String) {
    auditEvents(action: $action, actorUserId: $actor, targetId: $target, since: $since, until: $until, first: 50, after: $after) {
      totalCount
      pageInfo { hasNextPage endCursor }
      nodes {
        id occurredAt actorKind actorUserId credentialKind credentialId surface action targetIds outcome
        clientAddress requestId
      }
    }
  }
`);
