/**
 * A raw graphql-transport-ws subscriber of `siteImportUpdated(after:)` for resume tests
 * (docs/subscriptions.md "Resuming after a dropped connection"): it records every event with its cursor, can be cut
 * like a network failure, and helpers check a run for gaps and duplicates.
 */
import type { Knex } from "knex";
import WebSocket from "ws";
import { SITE_IMPORT_TOPIC } from "../../src/modules/site-imports/site-import.events.ts";
import { cursorOf } from "../../src/shared/event-log.ts";
import type { PubSub } from "../../src/shared/pubsub.ts";

/** The subscription every resume test sends. */
export const RESUME_QUERY = `subscription($after: String) { siteImportUpdated(after: $after) { importId status cursor } }`;

/** One event as a subscriber got it. */
export interface Got {
  importId: string;
  status: string;
  cursor: string;
}

/** A raw graphql-transport-ws subscriber of {@link RESUME_QUERY}. */
export interface Subscriber {
  got: Got[];
  /** The errors the operation ended with, if any (`error` message, or a `next` with `errors`). */
  error?: Array<{ message: string; extensions?: { code?: string } }>;
  /** True once the socket closed (cut, closed, or the server went away). */
  closed: boolean;
  /** Terminates the socket at once, as a network failure would. */
  cut(): void;
  close(): Promise<void>;
}

/**
 * Opens a socket to `baseUrl`, authenticates with `apiKey`, subscribes with `after`; resolves once subscribed: with
 * `pubsub` (an in-process server's), once its stream listens; without, once the subscribe message is sent.
 */
export async function subscribeImports(
  baseUrl: string,
  apiKey: string,
  after: string | null,
  pubsub?: PubSub,
): Promise<Subscriber> {
  const ws = new WebSocket(`${baseUrl.replace("http", "ws")}/graphql`, "graphql-transport-ws");
  const sub: Subscriber = {
    got: [],
    closed: false,
    cut: () => ws.terminate(),
    close: () =>
      new Promise((resolve) => {
        if (ws.readyState === ws.CLOSED) return resolve();
        ws.once("close", () => resolve());
        ws.close();
      }),
  };
  ws.on("close", () => {
    sub.closed = true;
  });
  const before = pubsub?.listenerCount(SITE_IMPORT_TOPIC) ?? 0;
  await new Promise<void>((resolve, reject) => {
    ws.once("error", reject);
    // Closed (or no answer within 10 s) before the server acknowledged the connection: refused.
    const timer = setTimeout(() => ws.terminate(), 10_000);
    ws.once("close", () => reject(new Error("closed before connection_ack")));
    ws.once("open", () =>
      ws.send(JSON.stringify({ type: "connection_init", payload: { authorization: `Bearer ${apiKey}` } })),
    );
    ws.on("message", (data) => {
      const message = JSON.parse(String(data)) as { type: string; payload?: unknown };
      if (message.type === "connection_ack") {
        clearTimeout(timer);
        ws.send(JSON.stringify({ id: "1", type: "subscribe", payload: { query: RESUME_QUERY, variables: { after } } }));
        resolve();
      } else if (message.type === "next") {
        // A subscription refused by its resolver answers one `next` with `errors`, then `complete`.
        const result = message.payload as { data?: { siteImportUpdated: Got } | null; errors?: Subscriber["error"] };
        if (result.errors) sub.error = result.errors;
        else sub.got.push(result.data!.siteImportUpdated);
      } else if (message.type === "error") {
        sub.error = message.payload as Subscriber["error"];
      }
    });
  });
  ws.on("error", () => {});
  // Subscribed once the server's stream listens (in-process server), or its answer came.
  if (pubsub) await until(() => pubsub.listenerCount(SITE_IMPORT_TOPIC) > before || sub.error !== undefined);
  return sub;
}

/** The newest `seq` of the event log (0 when it has none), as read now through `knex`. */
export async function newestSeq(knex: Knex): Promise<number> {
  const { rows } = await knex.raw<{ rows: Array<{ seq: string | null }> }>("select max(seq) as seq from event_log");
  return Number(rows[0]?.seq ?? 0);
}

/**
 * A cursor at the log's end, for a client that must miss nothing from now on even before its stream listens: one
 * event is published on a topic no one follows (a fresh log has no event, hence no cursor), and its cursor returned.
 */
export async function cursorAtEnd(pubsub: PubSub, knex: Knex): Promise<string> {
  await pubsub.publish("test.origin", {});
  return cursorOf(await newestSeq(knex));
}

/** Waits until `probe()` holds (at most `timeoutMs`, default 15 s). */
export async function until(probe: () => boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Publishes a `site_import.updated` change as the imports module does (event log + NOTIFY), in `transaction` if given. */
export function publishImport(
  pubsub: PubSub,
  id: string,
  organizationId: string,
  projectId: string | null,
  transaction?: Parameters<PubSub["publish"]>[2],
): Promise<void> {
  return pubsub.publish(SITE_IMPORT_TOPIC, { id, organizationId, status: "pending", projectId }, transaction);
}

/**
 * Compares what a client got over all its connections (`ids`, in order of arrival) with the ids `expected`:
 * `gaps` are expected ids never received, `duplicates` ids received more than once, `foreign` ids not expected.
 */
export function ledger(
  ids: readonly string[],
  expected: readonly string[],
): { gaps: string[]; duplicates: string[]; foreign: string[] } {
  const counts = new Map<string, number>();
  for (const id of ids) counts.set(id, (counts.get(id) ?? 0) + 1);
  const wanted = new Set(expected);
  return {
    gaps: expected.filter((id) => !counts.has(id)),
    duplicates: [...counts].filter(([, n]) => n > 1).map(([id]) => id),
    foreign: [...counts.keys()].filter((id) => !wanted.has(id)),
  };
}
