/**
 * SIGTERM while clients open a new connection for every request (no keep-alive), on `src/main.ts` as a real process:
 * the connections the kernel completed before the signal (their requests sent, not yet taken by the process) are
 * taken and answered before the listener closes, since closing it with them in its backlog would reset them; those
 * made after the signal while it is being emptied are refused with 503 and `Retry-After`, later ones by the closed
 * port (one completing its handshake in the instant the listener closes may be reset by the kernel, as with any
 * server). No request connected before the signal is refused or reset, in any of three runs. A signal repeated at
 * once (npm forwarding a group's signal) is one request to stop: the drain runs and the exit is 0.
 */

import { randomBytes } from "node:crypto";
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { type SkiffProcess, spawnSkiff } from "../helpers/process.ts";

const API_KEY = `skiff_sigterm_${randomBytes(12).toString("hex")}`;
/** Clients, each sending its next request on a new connection as soon as the last one is answered. */
const CLIENTS = 40;
const RUNS = 3;
let db: TestDatabase;
let skiff: SkiffProcess | undefined;

beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  if (skiff && skiff.child.exitCode === null && skiff.child.signalCode === null) {
    skiff.child.kill("SIGKILL");
    await skiff.exited;
  }
  await db?.drop();
});

/** One request's outcome: its status and `Retry-After`, or its error code; when its connection was made. */
interface Outcome {
  status?: number;
  retryAfter?: string;
  error?: string;
  connectedAt?: number;
}

/** `GET path` on a new connection. */
function get(url: string, path: string): Promise<Outcome> {
  return new Promise((resolve) => {
    const outcome: Outcome = {};
    const request = http.get(`${url}${path}`, { agent: false, headers: { authorization: `Bearer ${API_KEY}` } });
    request.on("socket", (socket) => socket.once("connect", () => (outcome.connectedAt = Date.now())));
    request.on("response", (response) => {
      response.resume();
      response.on("end", () =>
        resolve({ ...outcome, status: response.statusCode, retryAfter: response.headers["retry-after"] }),
      );
      response.on("error", (e: NodeJS.ErrnoException) => resolve({ ...outcome, error: e.code ?? e.message }));
    });
    request.on("error", (e: NodeJS.ErrnoException) => resolve({ ...outcome, error: e.code ?? e.message }));
  });
}

describe("SIGTERM with a new connection per request", () => {
  it("answers every request connected before the signal; later ones are refused", async () => {
    for (let run = 1; run <= RUNS; run++) {
      skiff = spawnSkiff({ DATABASE_URL: db.url, SKIFF_BOOTSTRAP_API_KEY: API_KEY, SKIFF_SHUTDOWN_TIMEOUT: "10" });
      const listening = await skiff.waitForLog((r) => String(r.msg).startsWith("Server listening at"));
      const url = String(listening.msg).replace("Server listening at ", "");
      await skiff.waitForLog((r) => r.msg === "Skiff is ready");
      let stop = false;
      const outcomes: Outcome[] = [];
      const clients = Array.from({ length: CLIENTS }, async () => {
        while (!stop) {
          const outcome = await get(url, "/api/site-import?limit=5");
          outcomes.push(outcome);
          if (outcome.error === "ECONNREFUSED") stop = true;
        }
      });
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const signalled = Date.now();
      skiff.child.kill("SIGTERM");
      const exit = await skiff.exited;
      stop = true;
      await Promise.all(clients);

      // Connected before the signal: in the accept queue when it came, or taken already. Each is answered.
      const before = outcomes.filter((o) => o.connectedAt !== undefined && o.connectedAt < signalled);
      const after = outcomes.filter((o) => !before.includes(o));
      const refused = after.filter((o) => o.status === 503);
      const reset = after.filter((o) => o.error && o.error !== "ECONNREFUSED");
      console.log(
        `run ${run}: ${before.length} requests connected before the signal, ` +
          `${before.filter((o) => o.status === 200).length} answered 200; after it ${refused.length} refused 503, ` +
          `${after.filter((o) => o.error === "ECONNREFUSED").length} refused by the closed port, ${reset.length} reset ` +
          `as the listener closed; exit ${exit.code}`,
      );
      expect(before.filter((o) => o.status !== 200)).toEqual([]);
      for (const o of refused) expect(o.retryAfter).toBe("1");
      expect(after.every((o) => o.status === 200 || o.status === 503 || o.error)).toBe(true);
      expect(exit).toEqual({ code: 0, signal: null });
    }
  }, 120_000);

  it("takes a signal repeated at once (a group's signal forwarded by npm) as one: it drains and exits 0", async () => {
    skiff = spawnSkiff({ DATABASE_URL: db.url, SKIFF_BOOTSTRAP_API_KEY: API_KEY, SKIFF_SHUTDOWN_TIMEOUT: "10" });
    await skiff.waitForLog((r) => r.msg === "Skiff is ready");
    skiff.child.kill("SIGTERM");
    await new Promise((resolve) => setTimeout(resolve, 20));
    skiff.child.kill("SIGTERM");
    expect(await skiff.exited).toEqual({ code: 0, signal: null });
    await skiff.waitForLog((r) => r.msg === "shutdown complete", 1000);
    expect(skiff.stdout()).not.toContain("second signal");
  }, 60_000);
});
