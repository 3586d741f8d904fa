/**
 * One audit log entry (docs/audit-log.md) and how it is written: who (the caller's user and credential, or the
 * platform itself), where from (the request's surface, client address and id), what (an action name and the ids of
 * its targets — never arguments' values, so no secret can reach the log) and how it ended (`ok`, `refused`, or an
 * error code). Rows of `audit_events` are only ever inserted (the table refuses updates).
 */
import type { GraphQLError } from "graphql";
import type { Knex } from "knex";
import type { Caller } from "../../auth/caller.ts";
import { newTimedId } from "../../db/ids.ts";
import { isDataException, missingReference } from "../../db/pg-errors.ts";
import { isDatabaseUnavailable } from "../../shared/database-unavailable.ts";
import { storableText } from "../../shared/storable-text.ts";
import type { RequestOrigin, RequestSurface } from "../context.ts";
import { type AuditWriteKind, observeAuditWrite } from "./audit.metrics.ts";

/** How an action ended: done, refused (credentials, role, visibility, input), or the error code it failed with. */
export type AuditOutcome = "ok" | "refused" | (string & {});

/** One entry as written. */
export interface AuditEntry {
  /** The organization whose log holds the entry (null: none, e.g. a failed sign-in of an unknown address). */
  organizationId: string | null;
  actorKind: "USER" | "SYSTEM" | "ANONYMOUS";
  actorUserId: string | null;
  credentialKind: "SESSION" | "API_KEY" | "AGENT_TOKEN" | null;
  /** The credential's row id (session, API key or agent token id; never the secret). */
  credentialId: string | null;
  surface: RequestSurface;
  /** What was done: a mutation's name, `agent.<operation>`, `mcp.<tool>`, `auth.sign_in`, … */
  action: string;
  /** Ids of what the action named (at most {@link MAX_TARGETS}). */
  targetIds: string[];
  outcome: AuditOutcome;
  clientAddress: string | null;
  requestId: string | null;
}

/** Most target ids kept per entry; longer id values are cut to {@link MAX_ID_LENGTH} characters. */
export const MAX_TARGETS = 20;
const MAX_ID_LENGTH = 128;

/** Error codes that mean the caller was refused (credentials, role, visibility, input, rate), not a failure. */
const REFUSALS = new Set([
  "UNAUTHENTICATED",
  "FORBIDDEN",
  "NOT_FOUND",
  "BAD_USER_INPUT",
  "BAD_REQUEST",
  "RATE_LIMITED",
  "GRAPHQL_VALIDATION_FAILED",
]);

/**
 * The outcome of a failed action: `refused` for a refusal code, else the error's code. An error without a code is
 * read as the error formatter answers it (src/server/format-error.ts): a value PostgreSQL cannot store is bad input,
 * a write whose parent row was deleted meanwhile finds nothing (both refusals), an unreachable database is
 * SERVICE_UNAVAILABLE; anything else is internal.
 */
export function outcomeOfError(error: unknown): AuditOutcome {
  const code = (error as Partial<GraphQLError> | null)?.extensions?.code;
  if (typeof code === "string") return outcomeOfCode(code);
  const original = (error as { originalError?: unknown } | null)?.originalError ?? error;
  if (isDataException(original) || missingReference(original)) return "refused";
  if (isDatabaseUnavailable(original)) return "SERVICE_UNAVAILABLE";
  return "INTERNAL_SERVER_ERROR";
}

/** The outcome of an error `code` ({@link outcomeOfError}). */
export function outcomeOfCode(code: string): AuditOutcome {
  return REFUSALS.has(code) ? "refused" : code;
}

/** Who acted, from the request's caller (null: anonymous, or the platform when `system`). */
export function actorOf(
  caller: Caller | null,
  system = false,
): Pick<AuditEntry, "actorKind" | "actorUserId" | "credentialKind" | "credentialId"> {
  if (!caller)
    return { actorKind: system ? "SYSTEM" : "ANONYMOUS", actorUserId: null, credentialKind: null, credentialId: null };
  const credential =
    caller.via === "apiKey"
      ? { credentialKind: "API_KEY" as const, credentialId: caller.apiKeyId ?? null }
      : caller.via === "agentToken"
        ? { credentialKind: "AGENT_TOKEN" as const, credentialId: caller.agentTokenId ?? null }
        : { credentialKind: "SESSION" as const, credentialId: caller.sessionId ?? null };
  return { actorKind: "USER", actorUserId: caller.userId, ...credential };
}

/** What a request context says of an entry: its actor, origin and id. */
export interface EntrySource {
  caller: Caller | null;
  origin?: RequestOrigin;
  requestId?: string;
}

/** The entry of `action` on `targetIds` by `source`'s caller in `organizationId`, ended with `outcome`. */
export function entryOf(
  source: EntrySource,
  action: string,
  targetIds: readonly string[],
  outcome: AuditOutcome,
  organizationId: string | null,
): AuditEntry {
  const origin = source.origin ?? { surface: "GRAPHQL", clientAddress: null };
  return {
    organizationId,
    ...actorOf(source.caller, origin.surface === "SYSTEM"),
    surface: origin.surface,
    action,
    targetIds: [...new Set(targetIds)].slice(0, MAX_TARGETS).map((id) => id.slice(0, MAX_ID_LENGTH)),
    outcome,
    clientAddress: origin.clientAddress,
    requestId: source.requestId ?? null,
  };
}

/**
 * `text` as PostgreSQL's text can hold it: ids and addresses come from the caller's input (a fuzzed id may hold NUL
 * or a lone surrogate), and an entry must still be written for the refusal of such a call.
 */
function storable<T extends string | null>(text: T): T {
  return (text === null ? null : storableText(text)) as T;
}

/** The `audit_events` row of `entry`, stamped now: snake_case columns and their values. */
export function auditRow(entry: AuditEntry): Record<string, unknown> {
  // Stamped with its id's instant, not the transaction's start: the log, newest first by id, is newest first by
  // `occurredAt` too.
  const { id, at } = newTimedId("auditEvent");
  return {
    id,
    occurred_at: at,
    organization_id: entry.organizationId,
    actor_kind: entry.actorKind,
    actor_user_id: entry.actorUserId,
    credential_kind: entry.credentialKind,
    credential_id: entry.credentialId,
    surface: entry.surface,
    action: storable(entry.action),
    target_ids: entry.targetIds.map(storable),
    outcome: entry.outcome,
    client_address: storable(entry.clientAddress),
    request_id: storable(entry.requestId),
  };
}

/**
 * Inserts `entry` with `knex` (the change's transaction, or the pool for an entry of its own); the time since
 * `startedAt` (`performance.now()`, default now) is recorded as the write's cost under `kind` (audit.metrics.ts).
 */
export async function writeAuditEntry(
  knex: Knex,
  entry: AuditEntry,
  kind: AuditWriteKind,
  startedAt = performance.now(),
): Promise<void> {
  await knex("audit_events").insert(auditRow(entry));
  observeAuditWrite(kind, (performance.now() - startedAt) / 1000);
}
