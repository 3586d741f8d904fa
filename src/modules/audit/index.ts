/**
 * Module manifest: the audit log (schema/audit.graphql, docs/audit-log.md). Its table `audit_events` is written
 * by the transport's wrapping of every mutation ({@link auditedMutation}) and of the agent API, MCP and sign-in
 * calls ({@link recordCall}) and of the changes jobs make ({@link recordSystemChange}); read by owners and admins through `auditEvents` and its REST rows; pruned by
 * `audit.prune`.
 */
import { defineModule } from "../module.ts";
import { pruneAuditEventsJob } from "./audit.jobs.ts";
import { auditReads } from "./audit.reads.ts";
import { auditRoutes } from "./audit.rest.ts";

/** The audit module. */
export const auditModule = defineModule({
  name: "audit",
  tables: ["audit_events"],
  reads: auditReads,
  restRoutes: auditRoutes,
  jobs: [pruneAuditEventsJob],
});

// The public surface: what other modules and the transport may import.
export { recordCall, recordSystemChange } from "./audit-calls.ts";
export { type AuditOutcome, outcomeOfCode, outcomeOfError } from "./audit-entry.ts";
export {
  auditedMutation,
  auditedWriteRunner,
  noteAuditOrganization,
  noteAuditTarget,
  recordRefusedMutation,
  writeModelsWithAuditEntry,
  writeWithAuditEntry,
} from "./audit-mutations.ts";
