/**
 * ≥ 5,000 malformed requests across REST, GraphQL over HTTP and graphql-ws (seeded PRNG, so a
 * failure is reproducible): no 5xx, no SQL or stack text in any answer, and the server still works afterwards.
 * The inputs include automatic-persisted-query extensions, `@skip`/`@include` with junk values
 * (lists nested deep included) and OAuth callbacks and auth endpoints with junk; no answer (HTTP or WebSocket) says
 * INTERNAL_SERVER_ERROR and the server writes no log line at error level or above (every one is client-caused).
 * Prints the counts by status (HTTP) and by outcome (WebSocket).
 */
import { describe, expect, it } from "vitest";
import WebSocket from "ws";
import { restRoutes } from "../../src/modules/index.ts";
import { createOrg } from "../helpers/seed.ts";
import { captureLogs, gql, useTestServer } from "../helpers/server.ts";

const logs = captureLogs("warn");
const t = useTestServer({ SKIFF_WORKER: "false" }, logs.logger);

/** mulberry32: a small deterministic PRNG. */
function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = a;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}
const random = prng(Number(process.env.FUZZ_SEED ?? 16));
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
const int = (n: number) => Math.floor(random() * n);

/** Text an answer must never contain: SQL, driver messages, stack frames, file paths. */
const LEAK =
  /\bselect\b[^"]{0,80}\bfrom\b|insert into|invalid byte sequence|relation "|syntax error at or near|violates .* constraint|\bat [^\s]+ \(?\/|node_modules|\.ts:\d+|RangeError|TypeError|ReferenceError/i;

const WEIRD = [
  "",
  "\u0000",
  "\ud800",
  "\udfff",
  "'; --",
  "{{{{",
  "]]]]",
  "😀".repeat(50),
  "a".repeat(5000),
  "-1",
  "1e309",
  "NaN",
  "null",
  "[]",
  "{}",
  "\\",
  '"',
  "\r\n",
  "%00",
  "../../etc/passwd",
  "http://169.254.169.254/",
];

/** A random JSON-ish value (sometimes deep). */
function junkValue(depth = 0): unknown {
  switch (int(depth > 3 ? 5 : 8)) {
    case 0:
      return pick(WEIRD);
    case 1:
      return random() * 1e12 - 5e11;
    case 2:
      return random() < 0.5;
    case 3:
      return null;
    case 4:
      return int(1e6) - 5e5;
    case 5:
      return Array.from({ length: int(4) }, () => junkValue(depth + 1));
    case 6: {
      const o: Record<string, unknown> = {};
      for (let i = 0; i < int(4); i++)
        o[pick(["name", "id", "first", "input", "database", "source", pick(WEIRD)])] = junkValue(depth + 1);
      return o;
    }
    default:
      return `${"[".repeat(int(3000))}1${"]".repeat(int(3000))}`;
  }
}

const QUERIES = [
  "{ viewer { user { id email } } }",
  "query($first: Int, $after: String) { projects(first: $first, after: $after) { totalCount edges { node { id name } } } }",
  "query($id: ID!) { project(id: $id) { id name environments { id } } }",
  "query($id: ID) { siteImports(first: 5) { edges { node { id status } } } siteImport(id: $id) { id } }",
  "query($input: SiteImportInput!) { previewSiteImport(input: $input) { valid errors } }",
  "mutation($input: SiteImportInput!) { importSite(input: $input) { importId status } }",
  "mutation($id: ID!) { deleteSiteImport(id: $id, rollbackResources: true) { id } }",
  "mutation($name: String!) { createApiKey(name: $name) { apiKey { id } } }",
  "subscription { heartbeat }",
  "subscription { heartbeat @include(if: true) }",
  "{ __schema { types { name } } }",
];

/** A `@skip`/`@include` argument that is not a Boolean: junk, a variable, or a list nested up to 300 deep. */
function junkCondition(): string {
  const depth = int(300);
  return pick([`${"[".repeat(depth)}true${"]".repeat(depth)}`, '"yes"', "$x", "null", "{a: 1}", "1", "[]"]);
}

/** A random `extensions.persistedQuery` (wrong hash, unknown hash, other versions, wrong types). */
function junkPersistedQuery(): unknown {
  return pick([
    { version: 1, sha256Hash: "0".repeat(64) },
    { version: 1, sha256Hash: int(1e9).toString(16).padStart(64, "f") },
    { version: 2, sha256Hash: "a".repeat(64) },
    { version: "1", sha256Hash: "a".repeat(64) },
    { sha256Hash: junkValue() },
    { version: 1, sha256Hash: junkValue() },
    { version: 1 },
    junkValue(),
  ]);
}

/** Mutates a query text: truncation, insertion, duplication, deep nesting, junk tokens. */
function mutateQuery(q: string): string {
  switch (int(8)) {
    case 0:
      return q.slice(0, int(q.length));
    case 1: {
      const at = int(q.length);
      return q.slice(0, at) + pick(["{", "}", "(", ")", "$", "@", "...", '"', "#", ":", pick(WEIRD)]) + q.slice(at);
    }
    case 2:
      return `{ ${"a { ".repeat(int(2000))}b${" }".repeat(int(2000))} }`;
    case 3:
      return `{ ${Array.from({ length: int(80) }, (_, i) => `a${i}: __typename`).join(" ")} }`;
    case 4:
      return `query($x: ${pick(["Int", "String!", "[[Int]]", "Foo", "ID"])}) { project(id: $x) { id } }`;
    case 5:
      return random() < 0.5
        ? `{ ${"__typename @skip(if: false) ".repeat(int(100))} }`
        : `${pick(["subscription", "query", "subscription($x: Boolean!)"])} { ${pick(["heartbeat", "__typename"])} @${pick(["skip", "include"])}(if: ${junkCondition()}) }`;
    case 6:
      return pick(WEIRD);
    default:
      return q;
  }
}

/** encodeURIComponent that sends lone surrogates as the invalid UTF-8 bytes `%ED%A0%80` instead of throwing. */
function enc(text: string): string {
  return text
    .split(/([\ud800-\udfff])/u)
    .map((part) => (/^[\ud800-\udfff]$/u.test(part) ? "%ED%A0%80" : encodeURIComponent(part)))
    .join("");
}

/** Header values fetch can send (printable ASCII). */
const HEADER_JUNK = [
  "",
  "Bearer",
  "Bearer ",
  "Basic !!!",
  "Bearer skiff_x",
  "Bearer ' or 1=1 --",
  `Bearer ${"a".repeat(4000)}`,
];

interface Answer {
  status: number;
  text: string;
  /** The Location header of a redirect (better-auth reports its failures as `?error=…` on a redirect). */
  location?: string | null;
}

/** Sends one malformed GraphQL-over-HTTP request. */
async function graphqlRequest(url: string, apiKey: string): Promise<Answer> {
  const auth =
    random() < 0.7 ? { authorization: `Bearer ${apiKey}` } : random() < 0.5 ? { authorization: pick(HEADER_JUNK) } : {};
  const query = mutateQuery(pick(QUERIES));
  const variables =
    random() < 0.8 ? { input: junkValue(), id: junkValue(), first: junkValue(), name: junkValue() } : junkValue();
  let init: RequestInit;
  switch (int(7)) {
    case 0: // broken JSON
      init = {
        method: "POST",
        headers: { "content-type": "application/json", ...auth },
        body: JSON.stringify({ query }).slice(0, int(40)),
      };
      break;
    case 1: // wrong content type
      init = {
        method: "POST",
        headers: {
          "content-type": pick(["text/plain", "application/x-www-form-urlencoded", "multipart/form-data"]),
          ...auth,
        },
        body: query,
      };
      break;
    case 2: // GET with a query string
      return fetchAnswer(`${url}/graphql?query=${enc(query)}&variables=${enc(JSON.stringify(variables) ?? "")}`, {
        headers: { "apollo-require-preflight": "1", ...auth },
      });
    case 3: // batched or non-object bodies
      init = {
        method: "POST",
        headers: { "content-type": "application/json", ...auth },
        body: JSON.stringify(
          pick([[{ query }, { query }], 42, "x", null, { query: 42 }, { query, variables: "nope" }]),
        ),
      };
      break;
    case 4: // automatic persisted queries with a wrong, unknown or unsupported hash (with or without the query)
      init = {
        method: "POST",
        headers: { "content-type": "application/json", ...auth },
        body: JSON.stringify({
          query: random() < 0.5 ? pick(QUERIES) : undefined,
          extensions: { persistedQuery: junkPersistedQuery() },
        }),
      };
      break;
    default:
      init = {
        method: "POST",
        headers: { "content-type": "application/json", ...auth },
        body: JSON.stringify({ query, variables, operationName: random() < 0.2 ? pick(WEIRD) : undefined }),
      };
  }
  return fetchAnswer(`${url}/graphql`, init);
}

/** Sends one malformed REST request to a random route (or a near-miss path). */
async function restRequest(url: string, apiKey: string): Promise<Answer> {
  const route = pick(restRoutes);
  const path = route.path.replace(/:(\w+)/g, () => enc(String(pick(WEIRD))) || "x");
  const method = random() < 0.8 ? route.method : pick(["GET", "POST", "PUT", "DELETE", "PATCH"]);
  const query =
    random() < 0.5 ? `?${pick(["limit", "offset", "id", "input", "first"])}=${enc(String(junkValue()))}` : "";
  const headers: Record<string, string> = random() < 0.8 ? { authorization: `Bearer ${apiKey}` } : {};
  let body: string | undefined;
  if (method !== "GET" && method !== "HEAD") {
    headers["content-type"] = random() < 0.9 ? "application/json" : "text/plain";
    body =
      random() < 0.2
        ? "{not json"
        : JSON.stringify(random() < 0.5 ? junkValue() : { json: junkValue(), ...(junkValue() as object) });
  }
  return fetchAnswer(`${url}${path}${query}`, { method, headers, body });
}

/** OAuth callback paths and a few other better-auth endpoints. */
const AUTH_PATHS = [
  "/api/auth/callback/github",
  "/api/auth/callback/google",
  "/api/auth/callback/unknown",
  "/api/auth/oauth2/callback/oidc",
  "/api/auth/sign-in/email",
  "/api/auth/sign-in/social",
  "/api/auth/sign-up/email",
  "/api/auth/get-session",
  "/api/auth/sign-out",
  "/api/auth/two-factor/verify-totp",
  "/api/auth/verify-email",
  "/api/auth/reset-password",
];

/** Sends one malformed auth request: callbacks with junk `state`/`code`, endpoints with junk bodies and origins. */
async function authRequest(url: string): Promise<Answer> {
  const path = pick(AUTH_PATHS);
  const params = new URLSearchParams();
  for (const name of ["state", "code", "error", "iss", "token", "callbackURL"]) {
    if (random() < 0.5) params.set(name, String(pick(WEIRD)).replace(/[\ud800-\udfff]/gu, "x"));
  }
  const query =
    random() < 0.3
      ? `state=${pick(["%00", "%ff%fe", "x".repeat(300), "a%2Fb"])}&code=${enc(String(junkValue()))}`
      : params.toString();
  const headers: Record<string, string> = {};
  if (random() < 0.3) headers.origin = pick(["https://evil.example", "null", "http://localhost:1", "x"]);
  if (random() < 0.5) {
    return fetchAnswer(`${url}${path}?${query}`, { headers, redirect: "manual" });
  }
  headers["content-type"] = pick(["application/json", "application/x-www-form-urlencoded", "text/plain"]);
  const body =
    headers["content-type"] === "application/x-www-form-urlencoded"
      ? query
      : random() < 0.2
        ? "{not json"
        : JSON.stringify(junkValue());
  return fetchAnswer(`${url}${path}`, { method: "POST", headers, body, redirect: "manual" });
}

async function fetchAnswer(url: string, init: RequestInit): Promise<Answer> {
  const res = await fetch(url, init);
  return { status: res.status, text: await res.text(), location: res.headers.get("location") };
}

/**
 * One graphql-ws session: `connection_init` (usually authenticated) and, once acknowledged, `frames` subscribe
 * messages with malformed operations, then one random broken frame. Resolves with the close code ("1000" when
 * the client closed it), collecting every server message into `seen`.
 */
function wsSession(url: string, apiKey: string, frames: number, seen: string[]): Promise<string> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`${url.replace("http", "ws")}/graphql`, "graphql-transport-ws");
    const timer = setTimeout(() => {
      ws.terminate();
      resolve("timeout");
    }, 8000);
    const finish = () => {
      for (let i = 0; i < frames; i++) {
        const id = `s${i}`;
        const frame = pick([
          () => ({ type: "subscribe", id, payload: { query: mutateQuery(pick(QUERIES)), variables: junkValue() } }),
          () => ({
            type: "subscribe",
            id,
            payload: { query: 'subscription { siteImportUpdated(id: "\\u0000") { importId } }' },
          }),
          () => ({
            type: "subscribe",
            id,
            payload: {
              query: "subscription($id: ID) { siteImportUpdated(id: $id) { importId } }",
              variables: { id: junkValue() },
            },
          }),
          () => ({
            type: "subscribe",
            id,
            payload: { query: `subscription { heartbeat @${pick(["skip", "include"])}(if: ${junkCondition()}) }` },
          }),
          () => ({ type: "ping", payload: junkValue() }),
          () => ({ type: "complete", id: pick(WEIRD) }),
        ])();
        ws.send(JSON.stringify(frame));
      }
      ws.send(
        pick([
          () => JSON.stringify({ type: "subscribe", id: "s0", payload: { query: "{ __typename }" } }),
          () =>
            JSON.stringify({
              type: pick(["next", "error", "bogus", "connection_init"]),
              id: "x",
              payload: junkValue(),
            }),
          () => JSON.stringify({ type: "subscribe", id: pick(WEIRD), payload: junkValue() }),
          () => String(junkValue()),
          () => "{not json",
        ])(),
      );
      setTimeout(() => ws.close(1000), 300);
    };
    ws.on("message", (data) => {
      const text = String(data);
      seen.push(text);
      if (text.includes('"connection_ack"')) finish();
    });
    ws.on("close", (code, reason) => {
      clearTimeout(timer);
      resolve(code === 4500 || code === 1011 ? `${code} ${reason}` : String(code));
    });
    ws.on("error", () => {});
    ws.on("open", () => {
      if (random() < 0.1) ws.send(String(junkValue()));
      else
        ws.send(
          JSON.stringify({
            type: "connection_init",
            payload: random() < 0.9 ? { authorization: `Bearer ${apiKey}` } : junkValue(),
          }),
        );
    });
  });
}

describe("fuzz", () => {
  it("answers ≥ 5,000 malformed requests without a 5xx or leaked internals, and still works", async () => {
    const org = await createOrg(t.db.knex);
    const url = t.skiff.url;
    const byStatus: Record<string, number> = {};
    const failures: string[] = [];
    const check = (kind: string, answer: Answer) => {
      const key = `${kind} ${answer.status}`;
      byStatus[key] = (byStatus[key] ?? 0) + 1;
      if (
        answer.status >= 500 ||
        LEAK.test(answer.text) ||
        /INTERNAL_SERVER_ERROR/i.test(answer.text) ||
        /internal_server_error/i.test(answer.location ?? "")
      )
        failures.push(`${kind} ${answer.status}: ${answer.location ?? ""} ${answer.text.slice(0, 300)}`);
    };
    const total = { graphql: 2600, rest: 2000, auth: 500 };
    const jobs: Array<() => Promise<void>> = [
      ...Array.from(
        { length: total.graphql },
        () => async () => check("graphql", await graphqlRequest(url, org.owner.apiKey)),
      ),
      ...Array.from({ length: total.rest }, () => async () => check("rest", await restRequest(url, org.owner.apiKey))),
      ...Array.from({ length: total.auth }, () => async () => check("auth", await authRequest(url))),
    ];
    const concurrency = 16;
    let next = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < jobs.length) await jobs[next++]!();
      }),
    );

    // graphql-ws: 100 sessions × (init + 6 malformed subscribes + 1 broken frame) ≈ 800 messages.
    const wsCloses: Record<string, number> = {};
    const messages: string[] = [];
    for (let batch = 0; batch < 10; batch++) {
      const codes = await Promise.all(Array.from({ length: 10 }, () => wsSession(url, org.owner.apiKey, 6, messages)));
      for (const code of codes) wsCloses[code] = (wsCloses[code] ?? 0) + 1;
    }
    for (const m of messages)
      if (LEAK.test(m) || /INTERNAL_SERVER_ERROR/.test(m)) failures.push(`ws message: ${m.slice(0, 300)}`);

    console.info("fuzz HTTP answers by status", byStatus);
    console.info("fuzz graphql-ws close codes", wsCloses, "messages", messages.length);
    // Every input above is a client's mistake: none may be logged at error level (50) or above.
    const errorLines = logs.lines.filter((l) => Number(l.level) >= 50).map((l) => JSON.stringify(l).slice(0, 1500));
    console.info(
      "fuzz log lines by level and message",
      Object.entries(
        logs.lines.reduce<Record<string, number>>((counts, l) => {
          const key = `${l.level} ${String(l.msg).slice(0, 60)}`;
          counts[key] = (counts[key] ?? 0) + 1;
          return counts;
        }, {}),
      ),
    );
    expect(errorLines.slice(0, 5)).toEqual([]);
    expect(failures.slice(0, 5)).toEqual([]);
    expect(Object.keys(wsCloses).filter((code) => /^(1011|4500)/.test(code))).toEqual([]);
    expect(wsCloses.timeout ?? 0).toBe(0);
    // Counted from what happened, not from the plan: every HTTP request was answered, every WebSocket session closed,
    // and each acknowledged session sent 8 frames (init, 6 malformed frames, 1 broken frame).
    const httpAnswers = Object.values(byStatus).reduce((sum, n) => sum + n, 0);
    expect(httpAnswers).toBe(total.graphql + total.rest + total.auth);
    expect(Object.values(wsCloses).reduce((sum, n) => sum + n, 0)).toBe(100);
    const acknowledged = messages.filter((m) => m.includes('"connection_ack"')).length;
    expect(httpAnswers + acknowledged * 8).toBeGreaterThanOrEqual(5000);

    const after = await gql(url, "{ viewer { user { email } } }", {}, { apiKey: org.owner.apiKey });
    expect(after.status).toBe(200);
    expect(after.data).toEqual({ viewer: { user: { email: org.owner.email } } });
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
  }, 240_000);
});
