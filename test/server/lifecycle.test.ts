/**
 * `src/main.ts` as a real process on a fresh database: /readyz is 200 only once the first-run
 * bootstrap is committed, the banner's examples work as printed (site import included), the owner signs in from the
 * printed dashboard address, and SIGTERM with
 * 40 requests in flight and an open subscription answers every request, closes the WebSocket with 1012 and
 * exits 0.
 */
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { freePort } from "../helpers/free-port.ts";
import { type SkiffProcess, spawnSkiff } from "../helpers/process.ts";
import { slowPost } from "../helpers/slow-request.ts";

const API_KEY = `skiff_lifecycle_${randomBytes(12).toString("hex")}`;
let db: TestDatabase;
let skiff: SkiffProcess;
let url: string;

beforeAll(async () => {
  db = await createTestDatabase();
  // A fixed port, as an operator runs it: the base URL (SKIFF_BASE_URL unset) is http://localhost:<PORT>.
  skiff = spawnSkiff({
    DATABASE_URL: db.url,
    SKIFF_BOOTSTRAP_API_KEY: API_KEY,
    SKIFF_SHUTDOWN_TIMEOUT: "10",
    PORT: String(await freePort()),
  });
  const listening = await skiff.waitForLog((r) => String(r.msg).startsWith("Server listening at"));
  url = String(listening.msg).replace("Server listening at ", "");
});
afterAll(async () => {
  if (skiff?.child.exitCode === null && skiff.child.signalCode === null) {
    skiff.child.kill("SIGKILL");
    await skiff.exited;
  }
  await db?.drop();
});

const viewer = (apiKey: string) =>
  fetch(`${url}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${apiKey}` },
    body: JSON.stringify({ query: "{ viewer { activeOrganization { name } } }" }),
  });

describe("first run", () => {
  it("/readyz answers 200 only when the bootstrap API key already works", async () => {
    const seen: number[] = [];
    for (;;) {
      const res = await fetch(`${url}/readyz`);
      seen.push(res.status);
      if (res.status === 200) break;
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({ status: "starting" });
    }
    const res = await viewer(API_KEY);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ data: { viewer: { activeOrganization: { name: "Default" } } } });
  });

  it("prints a query and a site import that work on the fresh instance as printed", async () => {
    await skiff.waitForOutput(/Skiff first run =+\n[\s\S]*\n=+\n/);
    const banner = skiff.stdout().slice(skiff.stdout().indexOf("================ Skiff first run"));
    // A key the operator supplied is never echoed; the examples read it from the environment.
    expect(banner).not.toContain(API_KEY);
    expect(banner).toContain("API key       : (the one you set in SKIFF_BOOTSTRAP_API_KEY)");
    expect(banner).toMatch(/Password {6}: \S{12,}/);
    /** The shell command starting at `marker`, with its `\`-continued lines. */
    const command = (marker: string) => {
      const lines = banner.slice(banner.indexOf(marker) + marker.length).split("\n");
      const end = lines.findIndex((l) => !l.endsWith("\\"));
      return lines.slice(0, end + 1).join("\n");
    };
    const run = async (marker: string): Promise<unknown> => {
      const { stdout } = await promisify(execFile)("bash", ["-c", command(marker)], {
        env: { ...process.env, SKIFF_BOOTSTRAP_API_KEY: API_KEY },
      });
      return JSON.parse(stdout);
    };
    expect(await run("Try it:\n  ")).toMatchObject({ data: { viewer: { activeOrganization: { name: "Default" } } } });
    expect(await run("  1. ")).toMatchObject({
      data: { createContainerRegistry: { id: expect.stringMatching(/^reg_/) } },
    });
    const imported = await run("  2. ");
    expect(imported).toMatchObject({ status: "success", projectId: expect.stringMatching(/^prj_/) });
  });

  it("lets the owner sign in from the printed dashboard address and its other loopback names, not from others", async () => {
    const banner = skiff.stdout();
    const email = banner.match(/Owner account : (\S+)/)?.[1];
    const password = banner.match(/Password {6}: (\S+)/)?.[1];
    const dashboard = new URL(banner.match(/Dashboard {5}: (\S+)/)?.[1] ?? "");
    expect(dashboard.hostname).toBe("127.0.0.1");
    const signIn = (origin: string) =>
      fetch(`${url}/api/auth/sign-in/email`, {
        method: "POST",
        headers: { "content-type": "application/json", origin },
        body: JSON.stringify({ email, password }),
      });
    let cookie = "";
    for (const host of ["127.0.0.1", "localhost", "[::1]"]) {
      const res = await signIn(`http://${host}:${dashboard.port}`);
      expect(res.status, host).toBe(200);
      cookie = res.headers
        .getSetCookie()
        .map((c) => c.split(";")[0])
        .join("; ");
    }
    for (const origin of [`http://127.0.0.1:${Number(dashboard.port) + 1}`, "http://evil.example"]) {
      const res = await signIn(origin);
      expect(res.status, origin).toBe(403);
      expect(((await res.json()) as { code: string }).code).toBe("INVALID_ORIGIN");
    }
    // The dashboard's WebSocket, authenticated by the cookie, from the printed address.
    const ws = new WebSocket(`${url.replace("http", "ws")}/graphql`, "graphql-transport-ws", {
      headers: { cookie, origin: dashboard.origin },
    });
    const answer = await new Promise<string | number>((resolve) => {
      ws.once("open", () => ws.send(JSON.stringify({ type: "connection_init", payload: {} })));
      ws.once("message", (data) => resolve(JSON.parse(String(data)).type));
      ws.once("close", (code) => resolve(code));
    });
    ws.close();
    expect(answer).toBe("connection_ack");
  });
});

describe("SIGTERM under load", () => {
  it("answers the 40 requests in flight, closes the subscription with 1012, exits 0", async () => {
    const orgRes = await fetch(`${url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${API_KEY}` },
      body: JSON.stringify({ query: "{ viewer { activeOrganization { id } } }" }),
    });
    const organizationId = ((await orgRes.json()) as { data: { viewer: { activeOrganization: { id: string } } } }).data
      .viewer.activeOrganization.id;

    // An open subscription (graphql-transport-ws, raw, to observe the close code).
    const ws = new WebSocket(`${url.replace("http", "ws")}/graphql`, "graphql-transport-ws");
    const closed = new Promise<number>((resolve) => ws.once("close", (code) => resolve(code)));
    await new Promise((resolve) => ws.once("open", resolve));
    const acked = new Promise((resolve) => ws.once("message", resolve));
    ws.send(JSON.stringify({ type: "connection_init", payload: { authorization: `Bearer ${API_KEY}` } }));
    expect(JSON.parse(String(await acked))).toEqual({ type: "connection_ack" });
    ws.send(
      JSON.stringify({
        id: "1",
        type: "subscribe",
        payload: { query: "subscription { siteImportUpdated { importId status } }" },
      }),
    );

    // 40 requests in flight: 30 GraphQL queries and 10 import previews, each with half its body sent.
    const graphqlBody = JSON.stringify({
      query: "{ viewer { user { email } activeOrganization { name projects(first: 5) { totalCount } } } }",
    });
    const previewBody = JSON.stringify({
      organizationId,
      name: `preview-${randomBytes(4).toString("hex")}`,
      source: { type: "docker", dockerImage: "nginx:1.27" },
      port: 80,
    });
    const auth = { authorization: `Bearer ${API_KEY}` };
    const requests = [
      ...Array.from({ length: 30 }, () => slowPost(`${url}/graphql`, graphqlBody, auth)),
      ...Array.from({ length: 10 }, () => slowPost(`${url}/api/site-import/preview`, previewBody, auth)),
    ];
    await Promise.all(requests.map((r) => r.connected));
    await new Promise((resolve) => setTimeout(resolve, 300)); // the server has their headers

    const signalled = Date.now();
    skiff.child.kill("SIGTERM");
    await skiff.waitForLog((r) => r.msg === "shutting down");
    await new Promise((resolve) => setTimeout(resolve, 200)); // draining: no new connections, these still open
    for (const r of requests) r.finish();

    const results = await Promise.all(requests.map((r) => r.result));
    const closeCode = await closed;
    const exit = await skiff.exited;
    const exitMs = Date.now() - signalled;
    const resets = results.filter((r) => r.error).length;
    const serverErrors = results.filter((r) => (r.status ?? 0) >= 500).length;
    const complete = await skiff.waitForLog((r) => r.msg === "shutdown complete", 1000);
    console.log(
      `SIGTERM under load: ${results.length} in flight, ${results.filter((r) => r.status === 200).length} answered 200, ` +
        `${resets} resets, ${serverErrors} 5xx; WebSocket closed ${closeCode}; exit code ${exit.code} ` +
        `${exitMs} ms after the signal (server-side shutdown ${complete.ms} ms)`,
    );
    expect(resets).toBe(0);
    expect(serverErrors).toBe(0);
    for (const r of results.slice(0, 30)) {
      expect(r.status).toBe(200);
      expect(JSON.parse(r.body ?? "{}")).toMatchObject({ data: { viewer: { user: { email: "owner@skiff.local" } } } });
    }
    for (const r of results.slice(30)) {
      expect(r.status).toBe(200);
      expect(JSON.parse(r.body ?? "{}")).toMatchObject({ valid: true });
    }
    expect(closeCode).toBe(1012);
    expect(exit).toEqual({ code: 0, signal: null });
    expect(complete).toMatchObject({ inFlight: 40, late: 0 });
  });
});
