/**
 * Cross-instance events over PostgreSQL LISTEN/NOTIFY: every instance holds one dedicated LISTEN connection
 * on channel `skiff_events` and dispatches notifications to its local subscribers by topic. Publishers call
 * {@link PubSub.publish} after their transaction commits, with small payloads (ids and statuses, never rows;
 * PostgreSQL caps a payload at 8000 bytes).
 *
 * Delivery is at least once, exactly once to handlers: every published event is also written to the
 * `event_log` table with a sequence number (`seq`, given with its NOTIFY at its transaction's commit, one committer at
 * a time: `seq` order is commit order, and every snapshot of the log is a prefix of it). When the
 * LISTEN connection comes back after a loss (it reconnects with backoff), the instance replays the logged events
 * it has not dispatched — those after the last one it saw, and those of the seconds before the loss (events an
 * instance of an earlier release numbered at insert) — and dispatch skips every `seq` already dispatched, so
 * an event reaches each local handler once; live events arriving on the new connection during the replay are held
 * and handed out after it, in `seq` order, so handlers see every event in `seq` order. Handlers get the event's `seq`
 * too: clients resume after it
 * (src/shared/event-log.ts, `eventStream`'s `after`). The log is pruned past its retention by a job
 * (`SKIFF_EVENT_LOG_RETENTION_SECONDS`, default 24 h).
 */
import type { Knex } from "knex";
import pg from "pg";
import type { Logger } from "pino";
import { type LoggedEvent, loggedEventsAfter } from "./event-log.ts";

/** The PostgreSQL channel all Skiff events travel on (also named by the trigger `event_log_number`). */
export const EVENTS_CHANNEL = "skiff_events";

/** How long an instance remembers the `seq`s it dispatched (a replay after a loss skips them), ms (5 minutes). */
const SEEN_RETENTION_MS = 5 * 60_000;

/** How often an instance forgets old dispatched `seq`s, ms. */
const PRUNE_INTERVAL_MS = 60_000;

/** On a replay, how far before the loss events are looked for besides those after the last seen `seq`, ms. */
const REPLAY_OVERLAP_MS = 10_000;

/** Largest accepted NOTIFY payload, in bytes (PostgreSQL's limit is 8000). */
const MAX_PAYLOAD_BYTES = 7900;

/**
 * A handler of one topic's payloads; exceptions are logged and swallowed. Every local handler of one event gets
 * the same payload object (parsed once per instance): handlers must not mutate it, and may key per-event work
 * on it (see {@link oncePerEvent}).
 */
export type EventHandler = (payload: Record<string, unknown>, meta: EventMeta) => void;

/** What a handler gets besides the payload: the event's `seq` in `event_log` (null for an event without one). */
export interface EventMeta {
  seq: number | null;
}

/** The payload field and value a routed handler receives (see {@link PubSub.subscribe}). */
export interface EventRoute {
  field: string;
  value: string;
}

/** Publish/subscribe shared by all instances on one database. */
export interface PubSub {
  /**
   * Sends `payload` to the subscribers of `topic` on every instance (this one included), via NOTIFY on a pool
   * connection outside any transaction (call it after commit) — or, with `transaction`, inside it: PostgreSQL
   * then delivers the event when that transaction commits, and never if it rolls back.
   * @throws Error when the serialised event exceeds 7900 bytes.
   */
  publish(topic: string, payload: Record<string, unknown>, transaction?: Knex): Promise<void>;
  /**
   * Registers `handler` for `topic` on this instance; with `route`, only for the events whose payload has
   * `route.field` equal to `route.value` (an index: events of other values cost this handler nothing, so a
   * fan-out to many subscribers of many organizations touches only the matching ones).
   * @returns the function that unregisters it.
   */
  subscribe(topic: string, handler: EventHandler, route?: EventRoute): () => void;
  /**
   * The events of `topic` logged after `afterSeq` (with `route`, only the matching ones), oldest first: what a
   * resuming subscription replays before it goes live.
   * @throws BadUserInputError when `afterSeq` is beyond the newest event of the log; CursorExpiredError when events
   *   after `afterSeq` may have been pruned.
   */
  loggedAfter(topic: string, afterSeq: number, route?: EventRoute): Promise<LoggedEvent[]>;
  /** Number of local handlers of `topic` (lets tests wait until a subscription is live). */
  listenerCount(topic: string): number;
  /** Stops listening and closes the dedicated connection. */
  close(): Promise<void>;
}

/**
 * Opens the LISTEN connection to `databaseUrl` and returns the instance's {@link PubSub}; `knex` sends NOTIFYs.
 * `retentionMs` is the event log's retention (SKIFF_EVENT_LOG_RETENTION_SECONDS): a resume cursor older than it is
 * expired whether or not the prune has run yet. Resolves once LISTEN is active, so events published after start-up
 * reach this instance.
 * @throws Error when the first connection fails.
 */
export async function createPubSub(
  databaseUrl: string,
  knex: Knex,
  log: Logger,
  retentionMs?: number,
): Promise<PubSub> {
  /** Per topic: handler sets by route key (`""` for unrouted, `field\0value` otherwise) and the routed fields. */
  const topics = new Map<string, { sets: Map<string, Set<EventHandler>>; fields: Map<string, number>; size: number }>();
  let client: pg.Client | null = null;
  let closing = false;
  let retryTimer: NodeJS.Timeout | null = null;
  /** Highest `seq` dispatched so far, and when the LISTEN connection was last lost (replay bounds). */
  let lastSeq = 0;
  let lostAt: number | null = null;
  /** `seq`s dispatched within the retention, with when: a replayed or late event is dispatched once. */
  const seen = new Map<number, number>();
  /** The route key of each handler set (the string it is stored under in its topic's `sets`). */
  const keyOfSet = new WeakMap<Set<EventHandler>, string>();

  function dispatch(raw: string | undefined): void {
    let event: { seq?: unknown; topic?: unknown; payload?: unknown };
    try {
      event = JSON.parse(raw ?? "");
    } catch {
      log.warn({ raw }, "ignoring malformed event");
      return;
    }
    if (typeof event.topic !== "string" || typeof event.payload !== "object" || event.payload === null) return;
    const meta: EventMeta = { seq: typeof event.seq === "number" ? event.seq : null };
    if (typeof event.seq === "number") {
      if (seen.has(event.seq)) return;
      seen.set(event.seq, Date.now());
      if (event.seq > lastSeq) lastSeq = event.seq;
    }
    const entry = topics.get(event.topic);
    if (!entry) return;
    const payload = event.payload as Record<string, unknown>;
    const run = (set: Set<EventHandler> | undefined) => {
      for (const handler of set ?? []) {
        try {
          handler(payload, meta);
        } catch (err) {
          log.error({ err, topic: event.topic }, "event handler failed");
        }
      }
    };
    run(entry.sets.get(""));
    for (const field of entry.fields.keys()) {
      const value = payload[field];
      if (typeof value === "string") run(entry.sets.get(`${field}\u0000${value}`));
    }
  }

  /** The `seq` of a notification's text (0 when it has none: dispatch then ignores or passes it as it is). */
  function seqOf(raw: string): number {
    try {
      const seq = (JSON.parse(raw) as { seq?: unknown }).seq;
      return typeof seq === "number" ? seq : 0;
    } catch {
      return 0;
    }
  }

  async function connect(): Promise<void> {
    const next = new pg.Client({ connectionString: databaseUrl });
    const lost = (err?: Error) => {
      if (client !== next) return;
      client = null;
      lostAt ??= Date.now();
      next.end().catch(() => {});
      if (!closing) log.warn({ err }, "event connection lost; reconnecting");
      scheduleReconnect(250);
    };
    // Back after a loss, live events wait while the log's replay runs: dispatched first, the newest would pass the
    // ones the replay has yet to hand out, and a subscriber's cursor would run ahead of events it has not received.
    let held: string[] | null = lostAt === null ? null : [];
    next.on("notification", (msg) => {
      if (msg.channel !== EVENTS_CHANNEL) return;
      if (held) held.push(msg.payload ?? "");
      else dispatch(msg.payload);
    });
    next.on("error", lost);
    next.on("end", () => lost());
    try {
      await next.connect();
      await next.query(`listen ${pg.escapeIdentifier(EVENTS_CHANNEL)}`);
      if (lostAt === null) {
        // First connection: events from now on (what was published before start-up is not this instance's).
        // (Reads go through `knex`: the LISTEN connection's last statement stays its `listen`, for diagnostics.)
        const { rows } = await knex.raw<{ rows: Array<{ seq: string | null }> }>(
          "select max(seq) as seq from event_log",
        );
        lastSeq = Math.max(lastSeq, Number(rows[0]?.seq ?? 0));
      } else {
        // Back after a loss, listening again: what was logged meanwhile (dispatch skips what was already seen).
        const { rows } = await knex.raw<{ rows: Array<{ seq: string; topic: string; payload: string }> }>(
          `select seq, topic, payload from event_log
            where seq > ? or created_at >= to_timestamp(?::double precision / 1000) order by seq`,
          [lastSeq, lostAt - REPLAY_OVERLAP_MS],
        );
        for (const row of rows) {
          dispatch(`{"seq":${Number(row.seq)},"topic":${JSON.stringify(row.topic)},"payload":${row.payload}}`);
        }
        if (rows.length) log.info({ events: rows.length }, "event connection: replayed logged events");
        // Then the live ones that came meanwhile, in `seq` order (those the replay handed out are skipped).
        const live = (held ?? []).map((raw) => ({ raw, seq: seqOf(raw) })).sort((x, y) => x.seq - y.seq);
        held = null;
        for (const { raw } of live) dispatch(raw);
      }
    } catch (err) {
      next.end().catch(() => {});
      throw err;
    }
    lostAt = null;
    client = next;
  }

  /** Forgets dispatched `seq`s older than {@link SEEN_RETENTION_MS} (the log itself is pruned by a job). */
  function prune(): void {
    const cutoff = Date.now() - SEEN_RETENTION_MS;
    for (const [seq, at] of seen) if (at < cutoff - REPLAY_OVERLAP_MS) seen.delete(seq);
  }
  const pruneTimer = setInterval(prune, PRUNE_INTERVAL_MS);
  pruneTimer.unref();

  function scheduleReconnect(delayMs: number): void {
    if (closing || retryTimer) return;
    retryTimer = setTimeout(async () => {
      retryTimer = null;
      try {
        await connect();
        log.info("event connection re-established");
      } catch (err) {
        log.warn({ err }, "event reconnection failed");
        scheduleReconnect(Math.min(delayMs * 2, 10_000));
      }
    }, delayMs);
  }

  await connect();

  return {
    async publish(topic, payload, transaction) {
      const body = JSON.stringify(payload);
      // `{"seq":<up to 19 digits>,…}` besides topic and payload.
      if (Buffer.byteLength(body) + Buffer.byteLength(JSON.stringify(topic)) + 40 > MAX_PAYLOAD_BYTES)
        throw new Error(`Event on ${topic} exceeds ${MAX_PAYLOAD_BYTES} bytes`);
      // Logged with a provisional negative `seq`: the deferred trigger `event_log_number` numbers the row and sends
      // its NOTIFY at commit, one committer at a time, so `seq` order is commit order (a replay finds exactly what
      // was notified, and a cursor never passes an event that commits later). One statement per event.
      await (transaction ?? knex).raw(
        "insert into event_log (seq, topic, payload) values (-nextval('event_log_seq_seq'::regclass), ?, ?)",
        [topic, body],
      );
    },
    subscribe(topic, handler, route) {
      let entry = topics.get(topic);
      if (!entry) {
        entry = { sets: new Map(), fields: new Map(), size: 0 };
        topics.set(topic, entry);
      }
      const built = route ? `${route.field}\u0000${route.value}` : "";
      let set = entry.sets.get(built);
      if (!set) {
        set = new Set();
        entry.sets.set(built, set);
        keyOfSet.set(set, built);
      }
      if (set.has(handler)) return () => {};
      set.add(handler);
      entry.size += 1;
      if (route) entry.fields.set(route.field, (entry.fields.get(route.field) ?? 0) + 1);
      const registered = entry;
      const handlers = set;
      // Not the route nor its key: each handler of a route then holds no copy of them (the set has its key).
      const field = route ? route.field : null;
      let active = true;
      return () => {
        if (!active) return;
        active = false;
        handlers.delete(handler);
        registered.size -= 1;
        const key = keyOfSet.get(handlers) ?? "";
        if (handlers.size === 0 && registered.sets.get(key) === handlers) registered.sets.delete(key);
        if (field !== null) {
          const left = (registered.fields.get(field) ?? 1) - 1;
          if (left === 0) registered.fields.delete(field);
          else registered.fields.set(field, left);
        }
        if (registered.size === 0 && topics.get(topic) === registered) topics.delete(topic);
      };
    },
    loggedAfter(topic, afterSeq, route) {
      return loggedEventsAfter(knex, topic, afterSeq, route, retentionMs);
    },
    listenerCount(topic) {
      return topics.get(topic)?.size ?? 0;
    },
    async close() {
      closing = true;
      clearInterval(pruneTimer);
      if (retryTimer) clearTimeout(retryTimer);
      topics.clear();
      const current = client;
      client = null;
      await current?.end().catch(() => {});
    },
  };
}

/**
 * A memo of per-event work shared by every local subscriber of a topic: `memo(payload, make)` runs `make` for
 * the first subscriber that asks about this event and hands the same value (a promise, when `make` is async) to
 * the others. It is keyed on the payload object, which the instance's dispatch hands to every local handler of one
 * event (and which is garbage once they are done), so the work runs once per event and instance. Used by
 * subscription fan-outs to build an event's object once, each subscriber then deciding visibility from its own
 * cached access.
 */
export function oncePerEvent<T>() {
  const results = new WeakMap<Record<string, unknown>, T>();
  return (payload: Record<string, unknown>, make: () => T): T => {
    if (results.has(payload)) return results.get(payload) as T;
    const result = make();
    results.set(payload, result);
    return result;
  };
}

/** Event objects handed as they are to several subscribers (see {@link shareableEvent}). */
const shareable = new WeakSet<object>();

/**
 * Marks `event` as one object handed to every subscriber that may see it, so that the transport can compute the
 * GraphQL result once for subscribers with the same operation, as long as that execution reads nothing of a
 * subscriber's context (src/server/shared-execution.ts). Do not mark an object that holds per-subscriber data.
 * @returns `event`.
 */
export function shareableEvent<T extends object>(event: T): T {
  shareable.add(event);
  return event;
}

/** True when `event` was marked by {@link shareableEvent}. */
export function isShareableEvent(event: object): boolean {
  return shareable.has(event);
}

/**
 * Rejected by an {@link eventStream}'s `next()` once its consumer fell more than `maxQueued` live events behind: the
 * stream has ended rather than skip events. The WebSocket transport then closes the connection with 1013 (try
 * again later), and the client resumes with the last cursor it received, missing nothing.
 */
export class StreamOverflowError extends Error {
  constructor() {
    super("The subscriber fell too far behind its live events: reconnect and resume with the last cursor");
  }
}

/**
 * Takes a stream's events one at a time without a pending promise (see {@link EventStream.take}): an idle
 * subscriber then holds no promise, reaction or suspended function, only this object.
 */
export interface StreamConsumer<T> {
  /** The next value. */
  onValue(value: T): void;
  /** The stream is done. */
  onEnd(): void;
  /** The stream failed ({@link StreamOverflowError}); it is done. */
  onError(error: unknown): void;
}

/** A stream of {@link eventStream}: an async iterator, the end of its replay, and its push form (`take`). */
export type EventStream<T> = AsyncIterableIterator<T> & {
  /**
   * Hands the next event to `consumer` (in a microtask when one is ready, else when it is accepted), or its end or
   * failure; `next()`'s equivalent, one call per event, never both pending at once.
   */
  take(consumer: StreamConsumer<T>): void;
  /**
   * Resolves once the logged events after `after` are queued (at once without `after`); rejects with
   * BadUserInputError when the cursor is beyond the newest event of the log, CursorExpiredError when it is older
   * than the log's retention (the stream is then ended).
   */
  replayed: Promise<void>;
};

/**
 * What an `accept` of {@link eventStream} answers to end the stream: the events accepted before it are still
 * taken, then the stream is done (a GraphQL subscription completes), e.g. when what it follows was deleted.
 */
export const END_OF_STREAM: unique symbol = Symbol("end of stream");

/** What an `accept` of {@link eventStream} answers: the event to hand on, undefined to drop it, or the end. */
type Accepted<T> = T | undefined | typeof END_OF_STREAM;

/**
 * An async iterator over the events of `topic` that pass `accept` (called in order with the event's `seq`, may be
 * async and map the event; returning undefined or throwing drops it, {@link END_OF_STREAM} ends the stream). Buffers at most `maxQueued` (default 1000)
 * live events not yet taken; one more ends the stream, its `next()` rejecting with {@link StreamOverflowError}
 * (never a silent skip: the client resumes with its cursor). Replayed events are all kept (bounded by the log).
 * With `route`, only the events whose payload matches it reach `accept` (see {@link PubSub.subscribe}). With
 * `after` (a `seq`), the logged events after it are replayed first, through the same `accept`, then the live ones:
 * listening starts before the log is read, live events that arrive meanwhile are held and those the replay already
 * gave are skipped by `seq`, so nothing is missed or repeated at the seam.
 * `return()` unsubscribes; use it as a GraphQL subscription's source stream.
 */
export function eventStream<T>(
  pubsub: PubSub,
  topic: string,
  accept: (payload: Record<string, unknown>, meta: EventMeta) => Promise<Accepted<T>> | Accepted<T>,
  { maxQueued = 1000, route, after }: { maxQueued?: number; route?: EventRoute; after?: number } = {},
): EventStream<T> {
  return new TopicStream(pubsub, topic, accept, maxQueued, route, after);
}

/** Whether `value` is a promise (or another thenable) rather than a value. */
function isThenable<T>(value: PromiseLike<T> | T): value is PromiseLike<T> {
  return typeof (value as { then?: unknown } | null | undefined)?.then === "function";
}

/** An event before `accept`: its payload and meta, and whether it comes from the replay. */
type QueuedEvent = { payload: Record<string, unknown>; meta: EventMeta; replay?: boolean };

/** Resolved once there is no replay to wait for. */
const NO_REPLAY = Promise.resolve();

/** The end of a stream. */
const ENDED: IteratorReturnResult<undefined> = Object.freeze({ value: undefined, done: true });

/**
 * The {@link eventStream} of one subscriber. Its methods live on the prototype and its queues are made when
 * first needed, so that an idle subscription holds one object and its pubsub handler.
 */
class TopicStream<T> implements EventStream<T> {
  readonly replayed: Promise<void>;
  readonly #accept: (payload: Record<string, unknown>, meta: EventMeta) => Promise<Accepted<T>> | Accepted<T>;
  readonly #maxQueued: number;
  readonly #after: number | undefined;
  readonly #unsubscribe: () => void;
  /** Replayed events (all of them: the replay is bounded by the log) go first, then live ones (capped). */
  #replayQueue: QueuedEvent[] | null = null;
  #queue: QueuedEvent[] | null = null;
  #waiting: ((result: IteratorResult<T>) => void) | null = null;
  #failWaiting: ((error: Error) => void) | null = null;
  /** The consumer waiting for the next event (`take`), as `#waiting` for `next()`. */
  #consumer: StreamConsumer<T> | null = null;
  #done = false;
  /** Set when the consumer fell more than `maxQueued` live events behind (see {@link StreamOverflowError}). */
  #overflowed = false;
  #draining = false;
  /** Accepted events not yet taken by the consumer; only live ones count against `maxQueued`. */
  #ready: Array<{ value: T; replay: boolean }> | null = null;
  #readyLive = 0;
  /** Live events held while the log is read (with `after`), and the `seq`s the replay gave. */
  #held: QueuedEvent[] | null;
  #replayedSeqs: Set<number> | null = null;

  constructor(
    pubsub: PubSub,
    topic: string,
    accept: (payload: Record<string, unknown>, meta: EventMeta) => Promise<Accepted<T>> | Accepted<T>,
    maxQueued: number,
    route: EventRoute | undefined,
    after: number | undefined,
  ) {
    this.#accept = accept;
    this.#maxQueued = maxQueued;
    this.#after = after;
    this.#held = after === undefined ? null : [];
    this.#unsubscribe = pubsub.subscribe(topic, (payload, meta) => this.#received(payload, meta), route);
    if (after === undefined) {
      this.replayed = NO_REPLAY;
      return;
    }
    this.replayed = pubsub.loggedAfter(topic, after, route).then(
      (rows) => {
        this.#replayedSeqs = new Set();
        this.#replayQueue = [];
        for (const row of rows) {
          this.#replayedSeqs.add(row.seq);
          this.#replayQueue.push({ payload: row.payload, meta: { seq: row.seq }, replay: true });
        }
        const live = this.#held ?? [];
        this.#held = null;
        for (const item of live) this.#enqueue(item);
        this.#drain();
      },
      (error: unknown) => {
        void this.#finish();
        throw error;
      },
    );
    // A caller that does not wait for the replay still gets its failure through the ended stream.
    this.replayed.catch(() => {});
  }

  /** A live event from the pubsub: held during the replay, else queued and drained. */
  #received(payload: Record<string, unknown>, meta: EventMeta): void {
    if (this.#done) return;
    if (this.#held) {
      this.#held.push({ payload, meta });
      return;
    }
    this.#enqueue({ payload, meta });
    this.#drain();
  }

  /**
   * Passes queued events through `accept`, in order, and hands each accepted one to the consumer. An `accept` that
   * answers synchronously (a fan-out deciding from cached access) keeps the whole pass synchronous: one event
   * reaches every subscriber of an instance one after the other, each delivery done before the next begins, with
   * no promise per subscriber; an asynchronous answer suspends the pass until it settles.
   */
  #drain(): void {
    if (this.#draining) return;
    this.#draining = true;
    let suspended = false;
    try {
      while ((this.#replayQueue?.length || this.#queue?.length) && !this.#done) {
        const item = this.#replayQueue?.length ? this.#replayQueue.shift()! : this.#queue!.shift()!;
        let mapped: Promise<Accepted<T>> | Accepted<T>;
        try {
          mapped = this.#accept(item.payload, item.meta);
        } catch {
          continue; // `accept` reports its own failures; a failing event is dropped, the stream goes on.
        }
        if (isThenable(mapped)) {
          suspended = true;
          mapped.then(
            (value) => this.#resume(value, item),
            () => this.#resume(undefined, item),
          );
          return;
        }
        this.#deliver(mapped, item);
      }
    } finally {
      if (!suspended) this.#draining = false;
    }
  }

  /** Goes on with the pass {@link #drain} suspended on an asynchronous `accept`, whose answer was `mapped`. */
  #resume(mapped: Accepted<T>, item: QueuedEvent): void {
    try {
      this.#deliver(mapped, item);
    } finally {
      this.#draining = false;
    }
    this.#drain();
  }

  /** Hands an accepted event to the waiting consumer, or keeps it ready (counted against the cap when live). */
  #deliver(mapped: Accepted<T>, item: QueuedEvent): void {
    if (mapped === undefined || this.#done) return;
    if (mapped === END_OF_STREAM) {
      this.#endAfterReady();
      return;
    }
    if (this.#consumer) {
      const consumer = this.#consumer;
      this.#consumer = null;
      consumer.onValue(mapped);
    } else if (this.#waiting) {
      const resolve = this.#waiting;
      this.#waiting = null;
      this.#failWaiting = null;
      resolve({ value: mapped, done: false });
    } else {
      this.#ready ??= [];
      this.#ready.push({ value: mapped, replay: item.replay === true });
      if (!item.replay && ++this.#readyLive > this.#maxQueued) this.#overflow();
    }
  }

  /** Queues a live event (skipped when the replay already gave it, or it is not after the cursor). */
  #enqueue(item: QueuedEvent): void {
    const seq = item.meta.seq;
    if (seq !== null && (this.#replayedSeqs?.has(seq) || (this.#after !== undefined && seq <= this.#after))) return;
    this.#queue ??= [];
    this.#queue.push(item);
    // A consumer waiting for its next event is not behind: a burst of notifications read at once waits here for
    // `accept` while the first of them is served; what it does not take then counts in `#drain` (`#readyLive`).
    if (!this.#waiting && !this.#consumer && this.#queue.length > this.#maxQueued) this.#overflow();
  }

  /** Ends the stream: its consumer is too far behind to be given every event (see {@link StreamOverflowError}). */
  #overflow(): void {
    if (this.#done) return;
    this.#overflowed = true;
    const fail = this.#failWaiting;
    const consumer = this.#consumer;
    this.#waiting = null;
    this.#failWaiting = null;
    this.#consumer = null;
    void this.#finish();
    fail?.(new StreamOverflowError());
    consumer?.onError(new StreamOverflowError());
  }

  /** Ends the stream ({@link END_OF_STREAM}) once the consumer has taken the events accepted before the end. */
  #endAfterReady(): void {
    if (!this.#ready?.length) {
      void this.#finish();
      return;
    }
    // `next()` and `take` hand out what is ready before they see that the stream is done.
    this.#done = true;
    this.#unsubscribe();
    this.#replayQueue = null;
    this.#queue = null;
    this.#held = null;
  }

  #finish(): Promise<IteratorResult<T>> {
    if (!this.#done) {
      this.#done = true;
      this.#unsubscribe();
      this.#replayQueue = null;
      this.#queue = null;
      this.#ready = null;
      this.#readyLive = 0;
      this.#held = null;
      this.#waiting?.(ENDED);
      this.#waiting = null;
      this.#failWaiting = null;
      const consumer = this.#consumer;
      this.#consumer = null;
      consumer?.onEnd();
    }
    return Promise.resolve(ENDED);
  }

  take(consumer: StreamConsumer<T>): void {
    if (this.#overflowed) {
      queueMicrotask(() => consumer.onError(new StreamOverflowError()));
      return;
    }
    const next = this.#ready?.shift();
    if (next) {
      if (!next.replay) this.#readyLive -= 1;
      queueMicrotask(() => consumer.onValue(next.value));
      return;
    }
    if (this.#done) {
      queueMicrotask(() => consumer.onEnd());
      return;
    }
    this.#consumer = consumer;
  }

  next(): Promise<IteratorResult<T>> {
    if (this.#overflowed) return Promise.reject(new StreamOverflowError());
    const next = this.#ready?.shift();
    if (next) {
      if (!next.replay) this.#readyLive -= 1;
      return Promise.resolve({ value: next.value, done: false });
    }
    if (this.#done) return Promise.resolve(ENDED);
    return new Promise((resolve, reject) => {
      this.#waiting = resolve;
      this.#failWaiting = reject;
    });
  }

  return(): Promise<IteratorResult<T>> {
    return this.#finish();
  }

  throw(error?: unknown): Promise<IteratorResult<T>> {
    void this.#finish();
    return Promise.reject(error);
  }

  [Symbol.asyncIterator](): this {
    return this;
  }
}
