/**
 * Worker thread of `bench:subscriptions`: holds a share of the graphql-ws subscribers, so that reading a thousand
 * sockets is spread over several event loops and a receipt's time is taken close to its arrival (on separate
 * machines, as real subscribers are). workerData: `{ url, query, localAddress?, concurrency? }`: the loopback
 * address its sockets come from (127.0.0.x: each thread its own, so ports suffice for tens of thousands of sockets
 * and the server's cap of sockets authenticating per address applies per thread), and how many of its sockets
 * authenticate at once (default 4; under the server's 20 per address). Messages from the main thread:
 * `{ type: "open", subs: [{ index, apiKey, byId }] }` → `{ type: "opened" }` (or `{ type: "failed", error }`);
 * `{ type: "count" }` → `{ type: "count", n }` (receipts so far); `{ type: "collect" }` →
 * `{ type: "received", subs: [{ index, received: [{ id, status, at }], errors }] }`; `{ type: "close" }` →
 * `{ type: "closed" }`. Times are absolute ms (`performance.timeOrigin + performance.now()`).
 */
import { parentPort, workerData } from "node:worker_threads";
import WebSocket from "ws";

const { url, query, localAddress, concurrency } = workerData as {
  url: string;
  query: string;
  localAddress?: string;
  concurrency?: number;
};
/** At most this many sockets of this thread authenticating at once (the server caps them per address). */
const CONCURRENCY = concurrency ?? 4;

interface Sub {
  index: number;
  ws: WebSocket;
  received: Array<{ id: string; status: string; at: number }>;
  errors: unknown[];
}
let subs: Sub[] = [];

function open(index: number, apiKey: string, byId: string | null): Promise<Sub> {
  const ws = new WebSocket(`${url.replace("http", "ws")}/graphql`, "graphql-transport-ws", {
    localAddress,
    perMessageDeflate: false,
  });
  const sub: Sub = { index, ws, received: [], errors: [] };
  return new Promise((resolve, reject) => {
    ws.once("open", () =>
      ws.send(JSON.stringify({ type: "connection_init", payload: { authorization: `Bearer ${apiKey}` } })),
    );
    ws.on("message", (data) => {
      const at = performance.timeOrigin + performance.now();
      const msg = JSON.parse(String(data));
      if (msg.type === "connection_ack") {
        ws.send(JSON.stringify({ id: "1", type: "subscribe", payload: { query, variables: { id: byId } } }));
        resolve(sub);
      } else if (msg.type === "next") {
        if (msg.payload.errors) sub.errors.push(...msg.payload.errors);
        const update = msg.payload.data?.siteImportUpdated;
        if (update) sub.received.push({ id: update.importId, status: update.status, at });
      } else if (msg.type === "error") sub.errors.push(msg.payload);
    });
    ws.once("close", (code) => reject(new Error(`closed ${code} before connection_ack`)));
    ws.once("error", reject);
  });
}

parentPort?.on(
  "message",
  async (msg: { type: string; subs?: Array<{ index: number; apiKey: string; byId: string | null }> }) => {
    if (msg.type === "open") {
      try {
        const wanted = msg.subs ?? [];
        for (let i = 0; i < wanted.length; i += CONCURRENCY) {
          const batch = wanted.slice(i, i + CONCURRENCY).map((s) => open(s.index, s.apiKey, s.byId));
          subs.push(...(await Promise.all(batch)));
        }
        parentPort?.postMessage({ type: "opened" });
      } catch (error) {
        parentPort?.postMessage({ type: "failed", error: String(error) });
      }
    } else if (msg.type === "count") {
      parentPort?.postMessage({ type: "count", n: subs.reduce((sum, s) => sum + s.received.length, 0) });
    } else if (msg.type === "collect") {
      parentPort?.postMessage({
        type: "received",
        subs: subs.map((s) => ({ index: s.index, received: s.received, errors: s.errors })),
      });
    } else if (msg.type === "close") {
      for (const s of subs) s.ws.close();
      subs = [];
      parentPort?.postMessage({ type: "closed" });
    }
  },
);
