/**
 * Audit entries of what is not a mutation: every agent API and MCP call (sensitive reads), and the sign-in API's
 * events (sign-in and its failures, two-factor changes), each written on its own (a read changes nothing to share a
 * transaction with; a failure to write is logged, never answered to the caller); and the changes the platform's
 * jobs make with no request ({@link recordSystemChange}), written in their change's transaction.
 */
import type { Knex } from "knex";
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
    call.organizationId === undefined ? (source.caller?.organizationId ?? null) : call.organizationId;
  try {
    await writeAuditEntry(
      services.knex,
      entryOf(source, call.action, call.targetIds ?? [], call.outcome, organizationId),
      "call",
    );
  } catch (error) {
    log.error({ err: error, action: call.action }, "could not write an audit entry");
  }
}

/** A change a job made on its own (no request, no caller): what, on which ids, in which organization. */
export interface SystemChange {
  /** The organization whose log holds the entry. */
  organizationId: string;
  /** `system.<what happened>`, e.g. `system.webhook_endpoint_deactivated` (docs/audit-log.md lists them). */
  action: `system.${string}`;
  /** Ids of what changed (at most 20 kept). */
  targetIds: readonly string[];
}

/**
 * Writes the entry of `change` (actor `SYSTEM`, surface `SYSTEM`, outcome `ok`) with `knex`: the change's own
 * transaction, so that the entry commits with the change or rolls back with it. The one way jobs record what they
 * change (docs/audit-log.md, "Changes made by the platform").
 * @throws the database's error when the entry cannot be written (the change then fails with it).
 */
export async function recordSystemChange(knex: Knex, change: SystemChange): Promise<void> {
  await writeAuditEntry(
    knex,
    entryOf(
      { caller: null, origin: { surface: "SYSTEM", clientAddress: null } },
      change.action,
      change.targetIds,
      "ok",
      change.organizationId,
    ),
    "system",
  );
}
