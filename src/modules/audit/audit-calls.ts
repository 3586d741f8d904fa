/**
 * Audit entries of what is not a mutation: every agent API and MCP call (sensitive reads), and the sign-in API's
 * events (sign-in and its failures, two-factor changes). Each is written on its own (a read changes nothing to
 * share a transaction with); a failure to write is logged, never answered to the caller.
 */
import type { Logger } from "pino";
import type { AppServices } from "../services.ts";
import { type AuditOutcome, type EntrySource, entryOf, writeAuditEntry } from "./audit-entry.ts";

/** One call to record: what, on which ids, how it ended, in which organization (default: the caller's). */
export interface AuditedCall {
  action: string;
  targetIds?: readonly string[];
  outcome: AuditOutcome;
  organizationId?: string | null;
}

/** Writes the entry of `call` by `source`'s caller on the pool; logs (never throws) when it cannot. */
export async function recordCall(
  services: Pick<AppServices, "knex">,
  log: Logger,
  source: EntrySource,
  call: AuditedCall,
): Promise<void> {
  const organizationId =
    call.organizationId === undefined ? (source.principal?.organizationId ?? null) : call.organizationId;
  try {
    await writeAuditEntry(
      services.knex,
      entryOf(source, call.action, call.targetIds ?? [], call.outcome, organizationId),
    );
  } catch (error) {
    log.error({ err: error, action: call.action }, "could not write an audit entry");
  }
}
