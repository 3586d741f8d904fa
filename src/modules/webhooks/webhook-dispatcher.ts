/**
 * The deliveries' own queue (docs/webhooks.md "Delivery"): `webhook_deliveries` rows are the queue. A pending
 * delivery's next attempt is due at `next_attempt_at`; each instance that runs background work runs one dispatcher,
 * which claims due deliveries in batches — one statement takes up to as many as it has free attempts
 * (`SKIFF_WORKER_CONCURRENCY`), `for update skip locked`, at most the free slots of each endpoint
 * (webhook-endpoint-slots.ts; endpoints whose slots are all taken are left out), gives each a lease
 * (`locked_until`, `locked_by`: a HOT update, no index written) and returns them with their endpoints, on the job
 * runner's session pool (an idle instance's polls take no request connection) — and runs
 * their attempts (webhook-attempt.ts), whose outcomes are written in batched statements with the delivery's next step
 * (due again 1 s or 4 s later, or ended) and the lease given back. An attempt holds its slot (of the instance and of
 * its endpoint) while its request is in flight; once the receiver answered (or failed, or timed out) the slot is
 * free and its outcome waits for its batch holding only the lease. Attempts in flight and outcomes waiting together
 * stay within twice the slots, of the instance and of each endpoint; beyond that, claims wait for the database.
 *
 * It wakes on the NOTIFY of an emission (sent at its commit; webhook-emit.ts), when one of its attempts ends (a slot
 * freed), at the retry times it set, and polls every {@link POLL_MS} besides (what another instance queued for
 * later, recoveries' paced first attempts, a lost NOTIFY). Under load, with fewer than a quarter of its slots free,
 * a claim waits up to {@link CLAIM_WAIT_MS} for more to free up, so that one statement takes a batch instead of one
 * per answer (`npm run bench:webhooks`). A delivery whose instance died with its attempt in flight
 * is due again once its lease has expired (`SKIFF_WEBHOOK_LEASE_SECONDS`): it is attempted again, same attempt
 * number, same `delivery_id` and bytes (at least once). On stop it claims nothing more; attempts in flight finish
 * until the deadline, then are aborted and given back to the queue (due at once, for any instance).
 */
import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import type { Knex } from "knex";
import type { Logger } from "pino";
import type { BackgroundDatabase, ModuleWorker } from "../module.ts";
import type { AppServices } from "../services.ts";
import { attemptsInFlight, countAttempt, reportQueue } from "./webhook.metrics.ts";
import { type ClaimedDelivery, RETRY_WAITS_MS, runAttempt } from "./webhook-attempt.ts";
import { DUE_TOPIC } from "./webhook-emit.ts";
import { CLOSED_RETRY_MS, closingEndpoints, endpointClosing, endpointSlots } from "./webhook-endpoint-slots.ts";

/** How often a dispatcher looks for due deliveries without being told, ms. */
const POLL_MS = 500;
/** Longest wait of a claim for a quarter of the slots to be free, ms. */
const CLAIM_WAIT_MS = 2;
/** Candidates a claim looks at per attempt it may start (the others are of endpoints at their cap). */
const CANDIDATES_PER_SLOT = 2;

/**
 * One instance's dispatcher: `running` counts its attempts in flight; `stop` claims nothing more, waits for the
 * attempts in flight until its deadline, then aborts the others and gives their deliveries back to the queue.
 */
interface WebhookDispatcher extends ModuleWorker {
  /** Its id (`locked_by` of the deliveries it holds). */
  readonly id: string;
}

/** Adds `by` to `key`'s count in `counts`, dropping the key at 0. */
function bump(counts: Map<string, number>, key: string, by: 1 | -1): void {
  const n = (counts.get(key) ?? 0) + by;
  if (n > 0) counts.set(key, n);
  else counts.delete(key);
}

/** A claimed row as the claim returns it. */
type ClaimedRow = Omit<ClaimedDelivery, "attempt"> & { attempts: number };

/** What a claim takes: see {@link claimStatement}. */
interface ClaimLimits {
  /** Deliveries this dispatcher holds (attempt in flight, or outcome not written yet): never claimed again by it. */
  held: string[];
  /** Endpoints none of whose deliveries may be claimed (at their cap, or closing). */
  busy: string[];
  /** Endpoints with attempts in flight but free slots, and their free slots (same order). */
  partly: string[];
  slots: number[];
  /** Deliveries to claim at most. */
  free: number;
  /** Slots of an endpoint with no attempt in flight. */
  cap: number;
  leaseSeconds: number;
  /** The dispatcher's id (`locked_by`). */
  lockedBy: string;
}

/**
 * The claim statement (named `skiff_webhook_claim`, run on the job runner's pool): up to `free` due deliveries,
 * `for update skip locked`, at most each endpoint's free slots, leased to `lockedBy` for `leaseSeconds`, returned
 * with their endpoints. The deliveries of `held` are left out: one whose lease expired while this dispatcher still
 * waits to write its outcome (the database out meanwhile) is not attempted again by it.
 */
export function claimStatement(knex: Knex, limits: ClaimLimits): { name: string; text: string; values: unknown[] } {
  const native = knex
    .raw(
      `with candidate as (
         select id, endpoint_id, next_attempt_at from webhook_deliveries
         where status = 'pending' and next_attempt_at is not null and next_attempt_at <= now()
           and (locked_until is null or locked_until < now()) and endpoint_id <> all(?::text[])
           and id <> all(?::text[])
         order by next_attempt_at limit ? for update skip locked
       ), chosen as (
         select id from (
           select c.id, c.next_attempt_at,
             row_number() over (partition by c.endpoint_id order by c.next_attempt_at, c.id) as n,
             coalesce(f.free, ?) as free
           from candidate c left join unnest(?::text[], ?::int[]) as f(endpoint_id, free)
             on f.endpoint_id = c.endpoint_id
         ) ranked where n <= free order by next_attempt_at limit ?
       )
       update webhook_deliveries d set locked_until = now() + ? * interval '1 second', locked_by = ?
       from chosen, webhook_endpoints e where d.id = chosen.id and e.id = d.endpoint_id
       returning d.id as "id", d.endpoint_id as "endpointId", d.organization_id as "organizationId",
         d.event as "event", d.body as "body", d.status as "status", d.attempts as "attempts", d.force as "force",
         e.url as "url", e.secret_encrypted as "secretEncrypted", e.is_active as "isActive",
         e.failing_since as "failingSince"`,
      [
        limits.busy as unknown as Knex.Value,
        limits.held as unknown as Knex.Value,
        limits.free * CANDIDATES_PER_SLOT,
        limits.cap,
        limits.partly as unknown as Knex.Value,
        limits.slots as unknown as Knex.Value,
        limits.free,
        limits.leaseSeconds,
        limits.lockedBy,
      ],
    )
    .toSQL()
    .toNative();
  return { name: "skiff_webhook_claim", text: native.sql, values: [...native.bindings] };
}

/**
 * Starts the dispatcher of `services`' instance. Its claims (every poll included) run on `background`, the job
 * runner's session pool; the attempts' writes on the request pool, as job handlers' do.
 */
export function startWebhookDispatcher(
  services: AppServices,
  log: Logger,
  background: BackgroundDatabase,
): WebhookDispatcher {
  const { knex, config } = services;
  const id = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const capacity = config.SKIFF_WORKER_CONCURRENCY;
  const cap = endpointSlots(config);
  const leaseSeconds = config.SKIFF_WEBHOOK_LEASE_SECONDS;
  /** Free slots a claim waits for (at most {@link CLAIM_WAIT_MS}). */
  const batch = Math.ceil(capacity / 4);
  /** Attempts in flight per endpoint. */
  const inFlight = new Map<string, number>();
  /** Outcomes waiting to be written per endpoint. */
  const waitingOutcomes = new Map<string, number>();
  /**
   * The deliveries this dispatcher holds: attempt in flight or outcome not written yet (those of the latter are
   * `held.size - total`).
   */
  const held = new Set<string>();
  const attempts = new Set<Promise<void>>();
  const abort = new AbortController();
  /** Attempts in flight: calls to receivers not ended yet. */
  let total = 0;
  let claiming = false;
  let again = false;
  let scheduled = false;
  let stopped = false;
  /** The timer of a claim waiting for free slots, if any. */
  let waiting: NodeJS.Timeout | undefined;
  /** The claim running, if any (a stop waits for it, then for the attempts it started). */
  let claimed: Promise<void> | undefined;
  const timers = new Set<NodeJS.Timeout>();

  /**
   * Claims and starts what is due, one claim at a time (a wake-up during a claim claims again after it); with fewer
   * than `batch` slots free, only {@link CLAIM_WAIT_MS} after the first such wake-up (then `late`).
   */
  function pump(late = false): void {
    if (stopped) return;
    if (claiming) {
      again = true;
      return;
    }
    // Attempts waiting for their outcome to be written take no slot; with the attempts in flight, at most twice
    // the slots (a stalled database then stops the claims).
    const free = Math.min(capacity - total, 2 * capacity - held.size);
    if (free <= 0) return;
    if (free < batch && !late) {
      waiting ??= setTimeout(() => {
        waiting = undefined;
        pump(true);
      }, CLAIM_WAIT_MS);
      return;
    }
    clearTimeout(waiting);
    waiting = undefined;
    claiming = true;
    again = false;
    const readAt = performance.now();
    claimed = claim(free).then(
      (rows) => {
        claiming = false;
        for (const row of rows) start(row, readAt);
        // A full claim: more may be due.
        if (rows.length >= free) again = true;
        if (again) soon();
      },
      (err: unknown) => {
        claiming = false;
        if (!stopped) log.warn({ err }, "webhook deliveries not claimed; polling again");
      },
    );
  }

  /** Pumps after the current turn of the event loop (wake-ups of one turn claim together). */
  function soon(): void {
    if (scheduled) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      pump();
    });
  }

  /** Pumps in `ms` (a retry this instance set). */
  function at(ms: number): void {
    if (stopped) return;
    const timer = setTimeout(() => {
      timers.delete(timer);
      pump();
    }, ms);
    timers.add(timer);
  }

  async function claim(free: number): Promise<ClaimedRow[]> {
    const busy = [...closingEndpoints(services)];
    const partly: string[] = [];
    const slots: number[] = [];
    // An endpoint's free slots: at most `cap` attempts in flight, and at most `2 × cap` with its outcomes waiting to
    // be written (a receiver that fails fast while its final outcomes queue on its row takes no more).
    for (const endpointId of new Set([...inFlight.keys(), ...waitingOutcomes.keys()])) {
      const n = inFlight.get(endpointId) ?? 0;
      const open = Math.min(cap - n, 2 * cap - n - (waitingOutcomes.get(endpointId) ?? 0));
      if (open <= 0) busy.push(endpointId);
      else if (open < cap) {
        partly.push(endpointId);
        slots.push(open);
      }
    }
    const { rows } = await background.query<ClaimedRow>(
      claimStatement(knex, { held: [...held], busy, partly, slots, free, cap, leaseSeconds, lockedBy: id }),
    );
    return rows;
  }

  /** Runs the attempt of a claimed row in a slot of its endpoint. */
  function start(row: ClaimedRow, readAt: number): void {
    const { attempts: made, ...rest } = row;
    const delivery: ClaimedDelivery = { ...rest, attempt: made + 1 };
    const endpointId = delivery.endpointId;
    held.add(delivery.id);
    total++;
    attemptsInFlight(1);
    bump(inFlight, endpointId, 1);
    let slotHeld = true;
    /** Frees the attempt's slot (once): its call ended, or the attempt ended without one. */
    const freeSlot = () => {
      if (!slotHeld) return;
      slotHeld = false;
      total--;
      attemptsInFlight(-1);
      bump(inFlight, endpointId, -1);
      soon();
    };
    const run = (async () => {
      try {
        // Claimed while the dispatcher stopped: back to the queue at once, for another instance.
        if (stopped) {
          countAttempt("returned");
          await giveBack(delivery.id, 0);
          return;
        }
        // Read before a `410 Gone` of its endpoint here was committed: again in a second, when it reads it inactive.
        if (endpointClosing(services, endpointId, readAt)) {
          countAttempt("returned");
          await giveBack(delivery.id, CLOSED_RETRY_MS);
          return;
        }
        const outcome = await runAttempt(services, log, delivery, abort.signal, () => {
          if (!slotHeld) return;
          bump(waitingOutcomes, endpointId, 1);
          freeSlot();
        });
        if (outcome.kind === "skipped") log.debug({ deliveryId: delivery.id, reason: outcome.reason }, "skipped");
        if (outcome.kind === "failed") countAttempt(outcome.final ? "failed" : "retry");
        else countAttempt(outcome.kind);
        // Its retry is due then: this instance looks for it (another may take it first).
        if (outcome.kind === "failed" && !outcome.final) at((RETRY_WAITS_MS[delivery.attempt - 1] ?? 0) + 5);
      } catch (err) {
        if (!abort.signal.aborted) log.error({ err, deliveryId: delivery.id }, "webhook attempt failed to run");
        countAttempt("returned");
        // Aborted (shutdown) or not logged: due again at once for any instance (else at its lease's expiry).
        await giveBack(delivery.id, 0).catch(() => undefined);
      } finally {
        held.delete(delivery.id);
        if (slotHeld) freeSlot();
        else {
          bump(waitingOutcomes, endpointId, -1);
          soon();
        }
      }
    })();
    attempts.add(run);
    void run.finally(() => attempts.delete(run));
  }

  /** Gives a held delivery back to the queue, due in `inMs`, its attempt not made. */
  async function giveBack(deliveryId: string, inMs: number): Promise<void> {
    await knex.raw(
      `update webhook_deliveries set locked_until = null, locked_by = null,
         next_attempt_at = now() + ? * interval '1 millisecond'
       where id = ? and locked_by = ? and status = 'pending'`,
      [inMs, deliveryId, id],
    );
    if (inMs > 0) at(inMs + 5);
  }

  const unsubscribe = services.pubsub.subscribe(DUE_TOPIC, () => soon());
  const unreport = reportQueue(knex);
  const poll = setInterval(() => pump(), POLL_MS);
  soon();

  return {
    id,
    get running() {
      return held.size;
    },
    async stop(deadlineMs) {
      stopped = true;
      unsubscribe();
      unreport();
      clearInterval(poll);
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      clearTimeout(waiting);
      await claimed;
      if (attempts.size > 0) {
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([
          Promise.allSettled([...attempts]),
          new Promise((resolve) => {
            timer = setTimeout(resolve, deadlineMs);
          }),
        ]);
        clearTimeout(timer);
      }
      abort.abort();
      await Promise.allSettled([...attempts]);
    },
  };
}
