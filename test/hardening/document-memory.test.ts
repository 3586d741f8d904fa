/**
 * Documents and operation keys a client chooses are kept in bounded caches, measured in bytes with their text: an
 * anonymous client posting distinct documents that are mostly comment, and a client subscribing over one socket with
 * distinct megabyte variables, leave the heap (after a full collection) within the caches' bounds, instead of growing
 * with every request (each such document kept its whole source text in an LRU that counted only its small AST).
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import WebSocket from "ws";
import { createOrg } from "../helpers/seed.ts";
import { useTestServer } from "../helpers/server.ts";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;
const t = useTestServer({ SKIFF_WORKER: "false" });

const MB = 2 ** 20;
/** A heap growth that would mean the documents of one of the loops below are all kept (each loop sends ~180 MB). */
const LEAK = 120 * MB;

function heapUsed(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

describe("documents a client chooses", () => {
  it("keep the heap bounded over 200 distinct 900 KB documents on HTTP, anonymous", async () => {
    const pad = "x".repeat(900_000);
    const before = heapUsed();
    for (let i = 0; i < 200; i++) {
      const res = await fetch(`${t.skiff.url}/graphql`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ query: `query Q${i} { __typename } #${pad}` }),
      });
      expect(res.status).toBe(200);
      await res.arrayBuffer();
    }
    const grown = heapUsed() - before;
    console.log(`HTTP: heap grew ${(grown / MB).toFixed(1)} MB over 200 documents of 900 KB`);
    expect(grown).toBeLessThan(LEAK);
  });

  it("keep the heap bounded over 200 subscribes with distinct 900 KB variables on one socket", async () => {
    const org = await createOrg(t.db.knex);
    const pad = "y".repeat(900_000);
    const ws = new WebSocket(`${t.skiff.url.replace("http", "ws")}/graphql`, "graphql-transport-ws");
    const answers = new Map<string, () => void>();
    await new Promise<void>((resolve, reject) => {
      ws.once("error", reject);
      ws.once("open", () =>
        ws.send(JSON.stringify({ type: "connection_init", payload: { authorization: `Bearer ${org.owner.apiKey}` } })),
      );
      ws.on("message", (data) => {
        const message = JSON.parse(String(data)) as { type: string; id?: string };
        if (message.type === "connection_ack") resolve();
        if ((message.type === "complete" || message.type === "error") && message.id) answers.get(message.id)?.();
      });
    });
    const before = heapUsed();
    for (let i = 0; i < 200; i++) {
      const id = `q${i}`;
      const answered = new Promise<void>((resolve) => answers.set(id, resolve));
      ws.send(
        JSON.stringify({
          id,
          type: "subscribe",
          payload: { query: "query($x: ID!) { project(id: $x) { id } }", variables: { x: `${i}${pad}` } },
        }),
      );
      await answered;
    }
    ws.close();
    const grown = heapUsed() - before;
    console.log(`WebSocket: heap grew ${(grown / MB).toFixed(1)} MB over 200 subscribes with 900 KB variables`);
    expect(grown).toBeLessThan(LEAK);
  });
});
