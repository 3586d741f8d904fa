/**
 * Worker thread of `bench:subscriptions`: LISTENs on Skiff's event channel and posts every `siteImport` event to
 * the main thread with the absolute time it arrived (`performance.timeOrigin + performance.now()`, ms). Its own
 * event loop does nothing else, so the time is not delayed by the thousand WebSocket clients of the main thread.
 * workerData: `{ url }` (the database). Posts `"ready"` once listening.
 */
import { parentPort, workerData } from "node:worker_threads";
import pg from "pg";
import { EVENTS_CHANNEL } from "../src/shared/pubsub.ts";

const client = new pg.Client({
  connectionString: (workerData as { url: string }).url,
  // Left out of the server's LISTEN connections that bench/subscriptions.ts counts.
  application_name: "skiff-bench-listener",
});
await client.connect();
client.on("notification", (msg) => {
  const at = performance.timeOrigin + performance.now();
  const event = JSON.parse(msg.payload ?? "{}") as { topic?: string; payload?: Record<string, unknown> };
  if (event.topic === "site_import.updated" && event.payload) parentPort?.postMessage({ ...event.payload, at });
});
await client.query(`listen ${pg.escapeIdentifier(EVENTS_CHANNEL)}`);
parentPort?.postMessage("ready");
parentPort?.on("message", async (msg) => {
  if (msg === "stop") {
    await client.end();
    process.exit(0);
  }
});
