/**
 * Client mistakes answered as client errors, never as INTERNAL_SERVER_ERROR nor logged at error level:
 * automatic persisted queries with a wrong `sha256Hash`, an unknown hash or an unsupported `version` get
 * Apollo's codes (BAD_REQUEST, PERSISTED_QUERY_NOT_FOUND, PERSISTED_QUERY_NOT_SUPPORTED); a subscription whose
 * argument is a list nested 150 deep is a validation error over graphql-ws as over HTTP; an OAuth callback with a
 * bad `state` logs a warning at most. Every log line of the server is captured and checked.
 */
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import type { RunningSkiff } from "../../src/server/start.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { createOrg } from "../helpers/seed.ts";
import { captureLogs, startTestServer } from "../helpers/server.ts";

let db: TestDatabase;
let skiff: RunningSkiff;
let org: Awaited<ReturnType<typeof createOrg>>;
const logs = captureLogs();

beforeAll(async () => {
  db = await createTestDatabase();
  skiff = await startTestServer(db.url, { SKIFF_WORKER: "false" }, {}, logs.logger);
  org = await createOrg(db.knex);
});
afterAll(async () => {
  await skiff?.stop();
  await db?.drop();
});

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

async function post(body: unknown) {
  const res = await fetch(`${skiff.url}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${org.owner.apiKey}` },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as { errors?: Array<{ extensions?: { code?: string } }> } };
}

/** Log lines at error level or above written since `from`. */
const errorsSince = (from: number) => logs.lines.slice(from).filter((l) => Number(l.level) >= 50);

/** A subscription whose `@include(if:)` argument is a list nested `depth` deep (graphql-js threw on it in validation). */
const nested = (depth: number) =>
  `subscription { heartbeat @include(if: ${"[".repeat(depth)}true${"]".repeat(depth)}) }`;

describe("automatic persisted queries", () => {
  const query = "{ viewer { user { email } } }";

  it("answers Apollo's codes with 400 and logs no error", async () => {
    const from = logs.lines.length;
    const cases: Array<[unknown, string]> = [
      [{ query, extensions: { persistedQuery: { version: 1, sha256Hash: "0".repeat(64) } } }, "BAD_REQUEST"],
      [{ query, extensions: { persistedQuery: { version: 1, sha256Hash: "nope" } } }, "BAD_REQUEST"],
      [
        { extensions: { persistedQuery: { version: 1, sha256Hash: sha256("{ __typename }x") } } },
        "PERSISTED_QUERY_NOT_FOUND",
      ],
      [
        { query, extensions: { persistedQuery: { version: 2, sha256Hash: sha256(query) } } },
        "PERSISTED_QUERY_NOT_SUPPORTED",
      ],
      [{ query, extensions: { persistedQuery: { sha256Hash: sha256(query) } } }, "PERSISTED_QUERY_NOT_SUPPORTED"],
      [{ query, extensions: { persistedQuery: "yes" } }, "PERSISTED_QUERY_NOT_SUPPORTED"],
    ];
    const seen: string[] = [];
    for (const [body, code] of cases) {
      const res = await post(body);
      seen.push(`${res.status} ${res.body.errors?.[0]?.extensions?.code}`);
      expect(res.status, JSON.stringify(body)).toBe(code === "PERSISTED_QUERY_NOT_FOUND" ? 200 : 400);
      expect(res.body.errors?.[0]?.extensions?.code, JSON.stringify(body)).toBe(code);
    }
    console.info("APQ answers:", seen.join(", "));
    expect(errorsSince(from)).toEqual([]);
    // The register-then-hit flow still works.
    const registered = await post({ query, extensions: { persistedQuery: { version: 1, sha256Hash: sha256(query) } } });
    expect(registered.status).toBe(200);
    const hit = await post({ extensions: { persistedQuery: { version: 1, sha256Hash: sha256(query) } } });
    expect(hit.body).toEqual({ data: { viewer: { user: { email: org.owner.email } } } });
  });
});

describe("deeply nested list arguments", () => {
  it("over HTTP: 400 GRAPHQL_VALIDATION_FAILED (a subscription document)", async () => {
    const from = logs.lines.length;
    const res = await post({ query: nested(150) });
    expect(res.status, JSON.stringify([res.body, errorsSince(from)]).slice(0, 3000)).toBe(400);
    expect(res.body.errors?.[0]?.extensions?.code).toBe("GRAPHQL_VALIDATION_FAILED");
  });

  it("over graphql-ws: an `error` message with a validation code, the socket stays open, nothing logged as error", async () => {
    const from = logs.lines.length;
    const ws = new WebSocket(`${skiff.url.replace("http", "ws")}/graphql`, "graphql-transport-ws");
    const messages: Array<Record<string, unknown>> = [];
    let closeCode: number | null = null;
    ws.on("close", (code) => {
      closeCode = code;
    });
    await new Promise((resolve) => ws.once("open", resolve));
    const next = () =>
      new Promise<Record<string, unknown>>((resolve) =>
        ws.once("message", (data) => {
          const message = JSON.parse(String(data)) as Record<string, unknown>;
          messages.push(message);
          resolve(message);
        }),
      );
    let answer = next();
    ws.send(JSON.stringify({ type: "connection_init", payload: { authorization: `Bearer ${org.owner.apiKey}` } }));
    expect(await answer).toEqual({ type: "connection_ack" });
    const documents = [
      nested(150),
      nested(1),
      'subscription { heartbeat @skip(if: "yes") }',
      `subscription { siteImportUpdated(id: ${"[".repeat(150)}"x"${"]".repeat(150)}) { importId } }`,
    ];
    for (const [i, query] of documents.entries()) {
      answer = next();
      ws.send(JSON.stringify({ id: `doc${i}`, type: "subscribe", payload: { query } }));
      const message = await answer;
      expect(message, query.slice(0, 60)).toMatchObject({ type: "error", id: `doc${i}` });
      const code = (message.payload as Array<{ extensions?: { code?: string } }>)[0]?.extensions?.code;
      expect(code).toBe("GRAPHQL_VALIDATION_FAILED");
    }
    // Still usable afterwards.
    answer = next();
    ws.send(JSON.stringify({ type: "ping" }));
    expect(await answer).toEqual({ type: "pong" });
    expect(closeCode).toBeNull();
    ws.close();
    expect(errorsSince(from)).toEqual([]);
  });
});

describe("OAuth callbacks with a bad state", () => {
  it("redirect to the error page and log a warning at most", async () => {
    const from = logs.lines.length;
    for (const query of [
      "state=forged&code=x",
      "code=x",
      "state=&code=x",
      "state=%00%ff&code=x",
      "error=access_denied",
    ]) {
      for (const provider of ["github", "google", "unknown"]) {
        const what = `${provider} callback with ${query}`;
        // A NUL cannot be stored or looked up: 400 before better-auth (which would report an internal error).
        const unstorable = query.includes("%00");
        // GET: straight to better-auth's error page, saying why in its `error` parameter.
        const get = await fetch(`${skiff.url}/api/auth/callback/${provider}?${query}`, { redirect: "manual" });
        if (unstorable) {
          expect(get.status, what).toBe(400);
          expect(await get.json(), what).toMatchObject({ code: "INVALID_INPUT_VALUE" });
        } else {
          expect(get.status, what).toBe(302);
          const page = new URL(get.headers.get("location")!, skiff.url);
          expect(page.pathname, what).toBe("/api/auth/error");
          expect(page.searchParams.get("error"), what).toMatch(/^[a-z_]+$/);
          expect(page.searchParams.get("error"), what).not.toBe("internal_server_error");
        }
        // POST (a provider's form_post): sent on to the GET callback with the same fields, which ends as above.
        const postRes = await fetch(`${skiff.url}/api/auth/callback/${provider}`, {
          method: "POST",
          redirect: "manual",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: query,
        });
        expect(postRes.status, what).toBe(302);
        const onward = new URL(postRes.headers.get("location")!, skiff.url);
        expect(onward.pathname, what).toBe(`/api/auth/callback/${provider}`);
        expect(onward.searchParams.get("code"), what).toBe(new URLSearchParams(query).get("code"));
        const followed = await fetch(`${skiff.url}${onward.pathname}${onward.search}`, { redirect: "manual" });
        expect(followed.status, what).toBe(unstorable ? 400 : 302);
        if (!unstorable) {
          expect(new URL(followed.headers.get("location")!, skiff.url).pathname, what).toBe("/api/auth/error");
        }
      }
    }
    const errors = errorsSince(from);
    expect(errors.map((l) => JSON.stringify(l).slice(0, 600))).toEqual([]);
    console.info(
      "OAuth callback log levels:",
      logs.lines
        .slice(from)
        .map((l) => `${l.level} ${l.msg}`)
        .filter((v, i, all) => all.indexOf(v) === i),
    );
  });
});
