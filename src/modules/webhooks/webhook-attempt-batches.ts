/**
 * The delivery attempts' outcome statement, batched across the attempts an instance runs at once
 * (`npm run bench:webhooks`): attempts that end together share one statement writing their log entries and their
 * deliveries' new state (next attempt due, or the series ended; the lease given back), each entry atomic with its
 * delivery, so an attempt's outcome is logged before its delivery leaves the lease. A batch goes out
 * {@link LINGER_MS} after its first entry, or, while {@link IN_FLIGHT} statements are running, once one of them ends
 * (at most {@link MAX_WAIT_MS} later): under load the batches grow instead of the statements multiplying (at 50
 * attempts in flight, about 20 outcomes per statement instead of 7 without the linger). The wait holds no worker: an
 * attempt's slot is free once its receiver answered (webhook-dispatcher.ts). It is a named
 * prepared statement (planned once per connection). A failed batched write is retried entry by entry, so one bad
 * entry never fails the others.
 */
import DataLoader from "dataloader";
import type { Knex } from "knex";
import { storableText } from "../../shared/storable-text.ts";
import { retryingConflicts } from "../../shared/transaction.ts";
import type { AppServices } from "../services.ts";
import type { WebhookAttemptRow, WebhookDeliveryRow, WebhookEndpointRow } from "./webhook.model.ts";

/** The delivery and endpoint fields an attempt needs. */
export type DeliveryWithEndpoint = Pick<
  WebhookDeliveryRow,
  "id" | "endpointId" | "organizationId" | "event" | "body" | "status"
> &
  Pick<WebhookEndpointRow, "url" | "secretEncrypted" | "isActive" | "failingSince">;

/** One delivery log entry (attempt 1–3) as written; `id` and `createdAt` come from the database. */
export type AttemptLogEntry = Omit<WebhookAttemptRow, "id" | "createdAt">;

/** An entry to log with the delivery's next step: `retryInMs` until its next attempt, null when it was delivered. */
export type AttemptOutcomeEntry = AttemptLogEntry & { retryInMs: number | null };

/** Most attempts sharing one statement. */
const MAX_BATCH = 200;
/** Outcome statements running at once per instance; further batches wait for one to end. */
const IN_FLIGHT = 2;
/** Longest wait of a batch for a running statement to end, ms: a statement that hangs never holds the others. */
const MAX_WAIT_MS = 20;
/** How long a batch takes entries after its first, ms (the attempts ending meanwhile join it). */
const LINGER_MS = 2;

interface AttemptBatches {
  /** Resolves `true` once the entry is written. */
  log: DataLoader<AttemptOutcomeEntry, true>;
}

const byInstance = new WeakMap<Knex, AttemptBatches>();

/** Batches of one database (instances in one process, as in tests, keep theirs apart). */
function batchesOf(knex: Knex): AttemptBatches {
  let batches = byInstance.get(knex);
  if (!batches) {
    const log = gate();
    batches = {
      log: new DataLoader((entries) => g(log, writeEntries(knex, entries)), {
        cache: false,
        maxBatchSize: MAX_BATCH,
        batchScheduleFn: log.schedule,
      }),
    };
    byInstance.set(knex, batches);
  }
  return batches;
}

/** The statements of one step in flight: when its batches go out (see the file comment). */
interface Gate {
  /** DataLoader's `batchScheduleFn`: calls `flush` (sending the batch) once a statement may start. */
  schedule(flush: () => void): void;
  /** A statement ended: the next waiting batch goes out. */
  ended(): void;
}

function gate(): Gate {
  let running = 0;
  const waiting = new Set<() => void>();
  const start = (flush: () => void) => {
    waiting.delete(flush);
    running++;
    flush();
  };
  return {
    // After the linger: every attempt answered meanwhile joins the batch.
    schedule: (flush) =>
      setTimeout(() => {
        if (running < IN_FLIGHT) return start(flush);
        waiting.add(flush);
        setTimeout(() => waiting.has(flush) && start(flush), MAX_WAIT_MS);
      }, LINGER_MS),
    ended() {
      running--;
      const [next] = waiting;
      if (next && running < IN_FLIGHT) start(next);
    },
  };
}

/** `statement`, telling `gate` when it ends. */
function g<T>(gate: Gate, statement: Promise<T>): Promise<T> {
  return statement.finally(() => gate.ended());
}

/**
 * Logs an attempt and updates its delivery in one statement per batch (atomic for each entry): `attempts` set, the
 * lease given back, status `delivered` on success, else `pending` with its next attempt due in `retryInMs` — but a
 * delivery cancelled while this attempt was in flight (its endpoint deactivated) stays `cancelled`, out of the queue.
 * Entries whose delivery was deleted meanwhile are dropped.
 * @throws the database error of this entry's own statement when even that failed.
 */
export async function logAttempt(services: Pick<AppServices, "knex">, entry: AttemptOutcomeEntry): Promise<void> {
  await batchesOf(services.knex).log.load(entry);
}

/** Text PostgreSQL accepts (a receiver may answer any bytes): src/shared/storable-text.ts. */
function storable(text: string | null): string | null {
  return text === null ? null : storableText(text);
}

/** `entry` as a `webhook_delivery_attempts` row (snake_case, text made storable). */
export function storableEntry(entry: AttemptLogEntry): Record<string, unknown> {
  return {
    delivery_id: entry.deliveryId,
    endpoint_id: entry.endpointId,
    event: entry.event,
    attempt: entry.attempt,
    success: entry.success,
    response_status: entry.responseStatus,
    response_body: storable(entry.responseBody),
    error_message: storable(entry.errorMessage),
    duration_ms: entry.durationMs,
  };
}

async function writeEntries(knex: Knex, entries: readonly AttemptOutcomeEntry[]): Promise<Array<true | Error>> {
  try {
    await outcomeStatement(knex, entries);
    return entries.map(() => true as const);
  } catch {
    // One entry may be at fault (e.g. its delivery deleted between the join and the foreign key check): alone,
    // each retried after a deadlock or serialization failure (the attempt happened: it is logged).
    return Promise.all(
      entries.map((entry) =>
        retryingConflicts(async () => await outcomeStatement(knex, [entry])).then(
          () => true as const,
          (err: unknown) => (err instanceof Error ? err : new Error(String(err))),
        ),
      ),
    );
  }
}

/**
 * The outcome statement of `entries` (see {@link logAttempt}), named `skiff_webhook_attempt_outcome`: one array
 * parameter per column, then the batch's size.
 */
export function outcomeStatement(knex: Knex, entries: readonly AttemptOutcomeEntry[]): Knex.Raw {
  // One array per column (pg sends them as PostgreSQL arrays; Knex's types do not list arrays with nulls).
  const column = <K extends keyof AttemptOutcomeEntry>(key: K) => entries.map((e) => e[key]) as unknown as Knex.Value;
  return knex
    .raw(
      // `limit ?` (the batch's size) is no filter: it tells a generic plan that `entry` is small (a limit it cannot
      // see counts as a tenth of its input), so the update finds its deliveries by primary key however small the
      // table was when the statement was planned, instead of scanning it as it grows.
      `with entry as (
       select * from unnest(?::text[], ?::text[], ?::text[], ?::int[], ?::boolean[], ?::int[], ?::text[], ?::text[],
         ?::int[], ?::int[]) as t(delivery_id, endpoint_id, event, attempt, success, response_status, response_body,
         error_message, duration_ms, retry_ms)
       limit ?
     ), updated as (
       update webhook_deliveries d
       set attempts = entry.attempt, updated_at = now(), locked_until = null, locked_by = null,
         status = case when entry.success then 'delivered' when d.status = 'cancelled' then d.status else 'pending' end,
         next_attempt_at = case when entry.success or d.status = 'cancelled' then null
           else now() + entry.retry_ms * interval '1 millisecond' end
       from entry where d.id = entry.delivery_id
       returning entry.delivery_id, entry.endpoint_id, entry.event, entry.attempt, entry.success,
         entry.response_status, entry.response_body, entry.error_message, entry.duration_ms
     )
     insert into webhook_delivery_attempts (delivery_id, endpoint_id, event, attempt, success, response_status,
       response_body, error_message, duration_ms)
     select delivery_id, endpoint_id, event, attempt, success, response_status, response_body, error_message,
       duration_ms from updated`,
      [
        column("deliveryId"),
        column("endpointId"),
        column("event"),
        column("attempt"),
        column("success"),
        column("responseStatus"),
        entries.map((e) => storable(e.responseBody)) as unknown as Knex.Value,
        entries.map((e) => storable(e.errorMessage)) as unknown as Knex.Value,
        column("durationMs"),
        column("retryInMs"),
        entries.length,
      ],
    )
    .options({ name: "skiff_webhook_attempt_outcome" });
}
