/**
 * SIGTERM to a real `src/main.ts` process (as `npm start` runs it) with 40 `POST /api/site-import` in flight and a
 * subscription open: every request the server accepted gets a complete HTTP answer — 200 when its run ended during
 * the drain, else 202 with the pending record's id (never a reset) —, the subscription is closed with 1012 after
 * them, the process exits 0, and the next instance started on the same database completes every import left
 * pending.
 */

import { randomBytes } from "node:crypto";
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { type SkiffProcess, spawnSkiff } from "../helpers/process.ts";

const API_KEY = `skiff_drain_${randomBytes(12).toString("hex")}`;
const IMPORTS = 40;
const env = (db: TestDatabase) => ({
  DATABASE_URL: db.url,
  SKIFF_BOOTSTRAP_API_KEY: API_KEY,
  SKIFF_SHUTDOWN_TIMEOUT: "8",
  SKIFF_HEALTH_INTERVAL: "0",
});
let db: TestDatabase;
const started: SkiffProcess[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  for (const skiff of started) {
    if (skiff.child.exitCode === null && skiff.child.signalCode === null) {
      skiff.child.kill("SIGKILL");
      await skiff.exited;
    }
  }
  await db?.drop();
});

/** Starts `src/main.ts` on the test database and resolves with its URL once `/readyz` answers 200. */
async function startInstance(): Promise<{ skiff: SkiffProcess; url: string }> {
  const skiff = spawnSkiff(env(db));
  started.push(skiff);
  const listening = await skiff.waitForLog((r) => String(r.msg).startsWith("Server listening at"), 60_000);
  const url = String(listening.msg).replace("Server listening at ", "");
  while ((await fetch(`${url}/readyz`)).status !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
  return { skiff, url };
}

/** Outcome of one import request: status and body, or the socket error (ECONNRESET, socket hang up, …). */
interface Answer {
  status?: number;
  body?: { importId?: string; status?: string };
  error?: string;
}

/** POSTs `body` to `url` on a connection of its own (no pooling: a reset shows as this request's error). */
function postOwnConnection(url: string, body: unknown): Promise<Answer> {
  const text = JSON.stringify(body);
  return new Promise((resolve) => {
    const request = http.request(
      url,
      {
        method: "POST",
        agent: false,
        headers: {
          "content-type": "application/json",
          "content-length": Buffer.byteLength(text),
          authorization: `Bearer ${API_KEY}`,
        },
      },
      (res) => {
        let received = "";
        res.setEncoding("utf8").on("data", (chunk: string) => {
          received += chunk;
        });
        res.on("end", () => resolve({ status: res.statusCode, body: JSON.parse(received) }));
        res.on("error", (e: NodeJS.ErrnoException) => resolve({ error: e.code ?? e.message }));
      },
    );
    request.on("error", (e: NodeJS.ErrnoException) => resolve({ error: e.code ?? e.message }));
    request.end(text);
  });
}

describe("SIGTERM with imports in flight", () => {
  it("answers every import 200 or 202 with its id, closes the subscription 1012, and the next instance completes the pending ones", async () => {
    const { skiff, url } = await startInstance();
    const auth = { "content-type": "application/json", authorization: `Bearer ${API_KEY}` };
    const graphql = async (query: string, variables: Record<string, unknown> = {}) => {
      const res = await fetch(`${url}/graphql`, {
        method: "POST",
        headers: auth,
        body: JSON.stringify({ query, variables }),
      });
      return ((await res.json()) as { data: Record<string, { id: string } & Record<string, { id: string }>> }).data;
    };
    const organizationId = (await graphql("{ viewer { activeOrganization { id } } }")).viewer!.activeOrganization!.id;
    await graphql("mutation($i: CreateContainerRegistryInput!) { createContainerRegistry(input: $i) { id } }", {
      i: { organizationId, name: "Docker Hub", url: "docker.io" },
    });

    // An open subscription (graphql-transport-ws, raw, to observe the close code).
    const ws = new WebSocket(`${url.replace("http", "ws")}/graphql`, "graphql-transport-ws");
    const closed = new Promise<number>((resolve) => ws.once("close", (code) => resolve(code)));
    await new Promise((resolve) => ws.once("open", resolve));
    const acked = new Promise((resolve) => ws.once("message", resolve));
    ws.send(JSON.stringify({ type: "connection_init", payload: { authorization: `Bearer ${API_KEY}` } }));
    expect(JSON.parse(String(await acked))).toEqual({ type: "connection_ack" });
    const events: Array<{ importId: string; status: string }> = [];
    ws.on("message", (message) => {
      const parsed = JSON.parse(String(message)) as {
        type: string;
        payload?: { data?: { siteImportUpdated?: never } };
      };
      if (parsed.type === "next" && parsed.payload?.data?.siteImportUpdated)
        events.push(parsed.payload.data.siteImportUpdated);
    });
    ws.send(
      JSON.stringify({
        id: "1",
        type: "subscribe",
        payload: { query: "subscription { siteImportUpdated { importId status } }" },
      }),
    );

    let signalledAt: number | null = null;
    let answeredBeforeSignal = 0;
    const answers = Array.from({ length: IMPORTS }, (_, i) =>
      postOwnConnection(`${url}/api/site-import`, {
        organizationId,
        name: `drain-${randomBytes(3).toString("hex")}-${i}`,
        source: { type: "docker", dockerImage: "nginx:1.27" },
        database: { type: "postgres", name: "app", user: "app", password: randomBytes(12).toString("base64url") },
        port: 80,
      }).then((answer) => {
        if (signalledAt === null) answeredBeforeSignal++;
        return answer;
      }),
    );
    // Every request accepted (its record committed, the request waiting for the run), then the signal.
    while (Number((await db.knex("site_imports").count({ n: "*" }).first())?.n) < IMPORTS) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const signalled = Date.now();
    signalledAt = signalled;
    skiff.child.kill("SIGTERM");
    const results = await Promise.all(answers);
    const closeCode = await closed;
    const exit = await skiff.exited;
    const complete = await skiff.waitForLog((r) => r.msg === "shutdown complete", 1000);

    const count = (status: number) => results.filter((r) => r.status === status).length;
    const resets = results.filter((r) => r.error).length;
    console.log(
      `SIGTERM with ${IMPORTS} imports in flight: ${count(200)} × 200, ${count(202)} × 202, ${resets} resets, ` +
        `other ${results.length - count(200) - count(202) - resets}; WebSocket closed ${closeCode} after ` +
        `${events.length} events; exit ${exit.code} ${Date.now() - signalled} ms after the signal`,
    );
    expect(results.filter((r) => r.error)).toEqual([]);
    expect(results.filter((r) => r.status !== 200 && r.status !== 202)).toEqual([]);
    for (const r of results) {
      expect([200, 202]).toContain(r.status);
      expect(r.body?.importId).toMatch(/^imp_/);
      expect(r.body?.status).toBe(r.status === 200 ? "success" : "pending");
    }
    expect(new Set(results.map((r) => r.body?.importId)).size).toBe(IMPORTS);
    expect(closeCode).toBe(1012);
    expect(exit).toEqual({ code: 0, signal: null });
    // In flight at the signal: every request not answered before it (a run that ended first answered 200 already;
    // one answered while the signal travelled counts on neither side).
    expect(complete).toMatchObject({ late: 0, abandoned: [] });
    expect(complete.inFlight).toBeGreaterThan(0);
    expect(complete.inFlight).toBeLessThanOrEqual(IMPORTS - answeredBeforeSignal);
    // Every run that ended during the drain was told to the subscriber before its socket closed.
    const succeeded = new Set(events.filter((e) => e.status === "success").map((e) => e.importId));
    for (const r of results.filter((r) => r.status === 200)) expect(succeeded).toContain(r.body?.importId);

    // The next instance on the same database runs the imports left pending to their end.
    const next = await startInstance();
    const pending = results.filter((r) => r.status === 202).map((r) => r.body!.importId!);
    const finalStatus = new Map<string, string>();
    const deadline = Date.now() + 120_000;
    while (finalStatus.size < pending.length && Date.now() < deadline) {
      for (const id of pending.filter((p) => !finalStatus.has(p))) {
        const res = await fetch(`${next.url}/api/site-import/${id}`, { headers: auth });
        const record = (await res.json()) as { status: string };
        if (record.status !== "pending") finalStatus.set(id, record.status);
      }
      if (finalStatus.size < pending.length) await new Promise((resolve) => setTimeout(resolve, 500));
    }
    console.log(`next instance: ${finalStatus.size} of ${pending.length} pending imports ended`);
    expect([...finalStatus.values()]).toEqual(pending.map(() => "success"));
    next.skiff.child.kill("SIGTERM");
    expect(await next.skiff.exited).toEqual({ code: 0, signal: null });
  }, 240_000);
});
