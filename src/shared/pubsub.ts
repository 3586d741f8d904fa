/**
 * Cross-instance events over PostgreSQL LISTEN/NOTIFY: every instance holds one dedicated LISTEN connection
 * on channel `skiff_events` and dispatches notifications to its local subscribers by topic. Publishers call
 * {@link PubSub.publish} after their transaction commits, with small payloads (ids and statuses, never rows;
 * PostgreSQL caps a payload at 8000 bytes). Delivery is at most once: events sent while the LISTEN connection
 * is down (it reconnects with backoff) are lost.
 */
import type { Knex } from "knex";
import pg from "pg";
import type { Logger } from "pino";

/** The PostgreSQL channel all Skiff events travel on. */
export const EVENTS_CHANNEL = "skiff_events";

/** Largest accepted NOTIFY payload, in bytes (PostgreSQL's limit is 8000). */
const MAX_PAYLOAD_BYTES = 7900;

/**
 * A handler of one topic's payloads; exceptions are logged and swallowed. Every local handler of one event gets
 * the same payload object (parsed once per instance): handlers must not mutate it, and may key per-event work
 * on it (see {@link oncePerEvent}).
 */
export type EventHandler = (payload: Record<string, unknown>) => void;

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
  /** Number of local handlers of `topic` (lets tests wait until a subscription is live). */
  listenerCount(topic: string): number;
  /** Stops listening and closes the dedicated connection. */
  close(): Promise<void>;
}

/**
 * Opens the LISTEN connection to `databaseUrl` and returns the instance's {@link PubSub}; `knex` sends NOTIFYs.
 * Resolves once LISTEN is active, so events published after start-up reach this instance.
 * @throws Error when the first connection fails.
 */
export async function createPubSub(databaseUrl: string, knex: Knex, log: Logger): Promise<PubSub> {
  /** Per topic: handler sets by route key (`""` for unrouted, `field\0value` otherwise) and the routed fields. */
  const topics = new Map<string, { sets: Map<string, Set<EventHandler>>; fields: Map<string, number>; size: number }>();
  let client: pg.Client | null = null;
  let closing = false;
  let retryTimer: NodeJS.Timeout | null = null;

  function dispatch(raw: string | undefined): void {
    let event: { topic?: unknown; payload?: unknown };
    try {
      event = JSON.parse(raw ?? "");
    } catch {
      log.warn({ raw }, "ignoring malformed event");
      return;
    }
    if (typeof event.topic !== "string" || typeof event.payload !== "object" || event.payload === null) return;
    const entry = topics.get(event.topic);
    if (!entry) return;
    const payload = event.payload as Record<string, unknown>;
    const run = (set: Set<EventHandler> | undefined) => {
      for (const handler of set ?? []) {
        try {
          handler(payload);
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

  async function connect(): Promise<void> {
    const next = new pg.Client({ connectionString: databaseUrl });
    const lost = (err?: Error) => {
      if (client !== next) return;
      client = null;
      next.end().catch(() => {});
      if (!closing) log.warn({ err }, "event connection lost; reconnecting");
      scheduleReconnect(250);
    };
    next.on("notification", (msg) => {
      if (msg.channel === EVENTS_CHANNEL) dispatch(msg.payload);
    });
    next.on("error", lost);
    next.on("end", () => lost());
    try {
      await next.connect();
      await next.query(`listen ${pg.escapeIdentifier(EVENTS_CHANNEL)}`);
    } catch (err) {
      next.end().catch(() => {});
      throw err;
    }
    client = next;
  }

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
      const text = JSON.stringify({ topic, payload });
      if (Buffer.byteLength(text) > MAX_PAYLOAD_BYTES)
        throw new Error(`Event on ${topic} exceeds ${MAX_PAYLOAD_BYTES} bytes`);
      await (transaction ?? knex).raw("select pg_notify(?, ?)", [EVENTS_CHANNEL, text]);
    },
    subscribe(topic, handler, route) {
      let entry = topics.get(topic);
      if (!entry) {
        entry = { sets: new Map(), fields: new Map(), size: 0 };
        topics.set(topic, entry);
      }
      const key = route ? `${route.field}\u0000${route.value}` : "";
      let set = entry.sets.get(key);
      if (!set) {
        set = new Set();
        entry.sets.set(key, set);
      }
      if (set.has(handler)) return () => {};
      set.add(handler);
      entry.size += 1;
      if (route) entry.fields.set(route.field, (entry.fields.get(route.field) ?? 0) + 1);
      const registered = entry;
      const handlers = set;
      let active = true;
      return () => {
        if (!active) return;
        active = false;
        handlers.delete(handler);
        registered.size -= 1;
        if (handlers.size === 0 && registered.sets.get(key) === handlers) registered.sets.delete(key);
        if (route) {
          const left = (registered.fields.get(route.field) ?? 1) - 1;
          if (left === 0) registered.fields.delete(route.field);
          else registered.fields.set(route.field, left);
        }
        if (registered.size === 0 && topics.get(topic) === registered) topics.delete(topic);
      };
    },
    listenerCount(topic) {
      return topics.get(topic)?.size ?? 0;
    },
    async close() {
      closing = true;
      if (retryTimer) clearTimeout(retryTimer);
      topics.clear();
      const current = client;
      client = null;
      await current?.end().catch(() => {});
    },
  };
}

/**
 * A memo of per-event work shared by every local subscriber of a topic: `memo(payload, load)` runs `load` for
 * the first subscriber that asks about this event and hands the same promise to the others. It is keyed on the
 * payload object, which the instance's dispatch hands to every local handler of one event (and which is garbage
 * once they are done), so the work runs once per event and instance. Used by subscription fan-outs to load an
 * event's record once, each subscriber then deciding visibility from its own cached access (issue 15 goal 4).
 */
export function oncePerEvent<T>() {
  const results = new WeakMap<Record<string, unknown>, Promise<T>>();
  return (payload: Record<string, unknown>, load: () => Promise<T>): Promise<T> => {
    let result = results.get(payload);
    if (!result) {
      result = load();
      results.set(payload, result);
    }
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
 * An async iterator over the events of `topic` that pass `accept` (called in arrival order, may be async and
 * map the event; returning undefined or throwing drops it). Buffers at most `maxQueued` (default 1000) accepted
 * events (oldest dropped). With `route`, only the events whose payload matches it reach `accept` (see
 * {@link PubSub.subscribe}). `return()` unsubscribes; use it as a GraphQL subscription's source stream.
 */
export function eventStream<T>(
  pubsub: PubSub,
  topic: string,
  accept: (payload: Record<string, unknown>) => Promise<T | undefined> | T | undefined,
  { maxQueued = 1000, route }: { maxQueued?: number; route?: EventRoute } = {},
): AsyncIterableIterator<T> {
  const queue: Array<Record<string, unknown>> = [];
  let waiting: ((result: IteratorResult<T>) => void) | null = null;
  let done = false;
  let draining = false;
  const ready: T[] = [];

  async function drain(): Promise<void> {
    if (draining) return;
    draining = true;
    try {
      while (queue.length && !done) {
        let mapped: T | undefined;
        try {
          mapped = await accept(queue.shift()!);
        } catch {
          continue; // `accept` reports its own failures; a failing event is dropped, the stream goes on.
        }
        if (mapped === undefined || done) continue;
        if (waiting) {
          const resolve = waiting;
          waiting = null;
          resolve({ value: mapped, done: false });
        } else {
          ready.push(mapped);
          if (ready.length > maxQueued) ready.shift();
        }
      }
    } finally {
      draining = false;
    }
  }

  const unsubscribe = pubsub.subscribe(
    topic,
    (payload) => {
      if (done) return;
      queue.push(payload);
      if (queue.length > maxQueued) queue.shift();
      void drain();
    },
    route,
  );

  function finish(): Promise<IteratorResult<T>> {
    if (!done) {
      done = true;
      unsubscribe();
      queue.length = 0;
      ready.length = 0;
      waiting?.({ value: undefined, done: true });
      waiting = null;
    }
    return Promise.resolve({ value: undefined, done: true });
  }

  return {
    next() {
      if (ready.length) return Promise.resolve({ value: ready.shift()!, done: false });
      if (done) return Promise.resolve({ value: undefined, done: true });
      return new Promise((resolve) => {
        waiting = resolve;
      });
    },
    return: finish,
    throw(error?: unknown) {
      void finish();
      return Promise.reject(error);
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}
