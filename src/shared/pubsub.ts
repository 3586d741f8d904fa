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

/** A handler of one topic's payloads; exceptions are logged and swallowed. */
export type EventHandler = (payload: Record<string, unknown>) => void;

/** Publish/subscribe shared by all instances on one database. */
export interface PubSub {
  /**
   * Sends `payload` to the subscribers of `topic` on every instance (this one included), via NOTIFY on a pool
   * connection outside any transaction. Call it after commit.
   * @throws Error when the serialised event exceeds 7900 bytes.
   */
  publish(topic: string, payload: Record<string, unknown>): Promise<void>;
  /** Registers `handler` for `topic` on this instance. @returns the function that unregisters it. */
  subscribe(topic: string, handler: EventHandler): () => void;
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
  const handlers = new Map<string, Set<EventHandler>>();
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
    for (const handler of handlers.get(event.topic) ?? []) {
      try {
        handler(event.payload as Record<string, unknown>);
      } catch (err) {
        log.error({ err, topic: event.topic }, "event handler failed");
      }
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
    async publish(topic, payload) {
      const text = JSON.stringify({ topic, payload });
      if (Buffer.byteLength(text) > MAX_PAYLOAD_BYTES)
        throw new Error(`Event on ${topic} exceeds ${MAX_PAYLOAD_BYTES} bytes`);
      await knex.raw("select pg_notify(?, ?)", [EVENTS_CHANNEL, text]);
    },
    subscribe(topic, handler) {
      let set = handlers.get(topic);
      if (!set) {
        set = new Set();
        handlers.set(topic, set);
      }
      set.add(handler);
      return () => {
        set.delete(handler);
        if (set.size === 0 && handlers.get(topic) === set) handlers.delete(topic);
      };
    },
    listenerCount(topic) {
      return handlers.get(topic)?.size ?? 0;
    },
    async close() {
      closing = true;
      if (retryTimer) clearTimeout(retryTimer);
      handlers.clear();
      const current = client;
      client = null;
      await current?.end().catch(() => {});
    },
  };
}

/**
 * An async iterator over the events of `topic` that pass `accept` (called in arrival order, may be async and
 * map the event; returning undefined or throwing drops it). Buffers at most `maxQueued` accepted events (oldest dropped).
 * `return()` unsubscribes; use it as a GraphQL subscription's source stream.
 */
export function eventStream<T>(
  pubsub: PubSub,
  topic: string,
  accept: (payload: Record<string, unknown>) => Promise<T | undefined> | T | undefined,
  maxQueued = 1000,
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

  const unsubscribe = pubsub.subscribe(topic, (payload) => {
    if (done) return;
    queue.push(payload);
    if (queue.length > maxQueued) queue.shift();
    void drain();
  });

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
