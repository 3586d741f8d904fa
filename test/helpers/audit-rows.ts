/** The `audit_events` row as the tests read it (Knex's camelCase column names). */
export interface AuditRow {
  id: string;
  organizationId: string | null;
  actorKind: string;
  actorUserId: string | null;
  credentialKind: string | null;
  credentialId: string | null;
  surface: string;
  action: string;
  targetIds: string[];
  outcome: string;
  clientAddress: string | null;
  requestId: string | null;
}
