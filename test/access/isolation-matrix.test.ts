/**
 * Tenant isolation, proven as a table: every GraphQL Query, Mutation and Subscription field of the
 * running schema (introspected) and every REST route of the REST table (src/modules/index.ts) is run as each persona — owner,
 * admin, member granted the resource, member not granted, owner of another organization, a revoked API key,
 * no credentials, an agent token. Rows: matrix/graphql-rows.ts and matrix/rest-rows.ts.
 * For every cell: the outcome must be the row's; where it is NOT_FOUND / 404 the same call with a nonexistent id
 * must answer the very same body (another organization's or an ungranted resource reads like a missing one,
 * never FORBIDDEN); and no response may contain a name the persona cannot see (leak markers).
 * A field or route without a row fails, and so does a row whose field or route no longer exists.
 */
import { createClient } from "graphql-ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { restRoutes } from "../../src/modules/index.ts";
import type { RunningSkiff } from "../../src/server/start.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { fetchOpenApi, responseChecker } from "../helpers/openapi-validator.ts";
import { startTestServer } from "../helpers/server.ts";
import {
  buildFixture,
  type Credentials,
  type Fixture,
  FORBIDDEN_MARKERS,
  missingTwin,
  PERSONAS,
  type Persona,
} from "./matrix/fixture.ts";
import { type GraphqlRow, graphqlRows } from "./matrix/graphql-rows.ts";
import { type RestCall, restRows } from "./matrix/rest-rows.ts";

let db: TestDatabase;
let skiff: RunningSkiff;
let fx: Fixture;
let cellsRun = 0;
/** Every answer of a route described in a served OpenAPI document must be documented there and validate. */
let documented: ReturnType<typeof responseChecker>;

beforeAll(async () => {
  db = await createTestDatabase();
  // Webhook rows create endpoints on 127.0.0.1 (refused by the outbound guard unless allowed).
  skiff = await startTestServer(db.url, { SKIFF_OUTBOUND_ALLOW: "127.0.0.1" });
  fx = await buildFixture(skiff.url, db.knex);
  documented = responseChecker([
    await fetchOpenApi(`${skiff.url}/api/openapi.json`),
    await fetchOpenApi(`${skiff.url}/api/agent/openapi.json`),
  ]);
}, 120_000);
afterAll(async () => {
  const fields = graphqlRows.length;
  const routes = restRows.length;
  console.info(
    `isolation matrix: (${fields} GraphQL fields + ${routes} REST routes) × ${PERSONAS.length} personas = ` +
      `${(fields + routes) * PERSONAS.length} cells; ${cellsRun} cells run`,
  );
  await skiff?.stop();
  await db?.drop();
});

/** What one cell answered. */
interface Answer {
  outcome: string;
  body: string;
  /** REST: the `content-type` header (absent: no body or JSON). */
  contentType?: string;
}

function headersOf(c: Credentials): Record<string, string> {
  return {
    ...(c.cookie ? { cookie: c.cookie } : {}),
    ...(c.bearer ? { authorization: `Bearer ${c.bearer}` } : {}),
  };
}

async function runQuery(operation: string, variables: Record<string, unknown>, c: Credentials): Promise<Answer> {
  const res = await fetch(`${skiff.url}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headersOf(c) },
    body: JSON.stringify({ query: operation, variables }),
  });
  const text = await res.text();
  const json = JSON.parse(text) as { errors?: Array<{ extensions?: { code?: string } }> };
  return { outcome: json.errors?.length ? String(json.errors[0]?.extensions?.code) : "ok", body: text };
}

/**
 * Subscribes over graphql-ws; `ok` when the subscription stands for 3 s after the connection was acknowledged without
 * an error (400 ms and then 1 s proved too short for a NOT_FOUND to arrive while other suites load CI's machine;
 * counted from the subscribe call, a refused connection's close came later still). No answer in 20 s: `timeout`.
 */
function runSubscription(operation: string, variables: Record<string, unknown>, c: Credentials): Promise<Answer> {
  const cookie = c.cookie;
  class CookieWebSocket extends WebSocket {
    constructor(address: string, protocols?: string | string[]) {
      super(address, protocols, { headers: cookie ? { cookie } : {} });
    }
  }
  return new Promise((resolve) => {
    let settled = false;
    let standing: NodeJS.Timeout | undefined;
    const client = createClient({
      url: `${skiff.url.replace("http", "ws")}/graphql`,
      webSocketImpl: CookieWebSocket,
      retryAttempts: 0,
      connectionParams: c.bearer ? { authorization: `Bearer ${c.bearer}` } : {},
      on: {
        connected: () => {
          standing ??= setTimeout(() => finish({ outcome: "ok", body: "{}" }), 3000);
        },
      },
    });
    const finish = (answer: Answer) => {
      if (settled) return;
      settled = true;
      clearTimeout(standing);
      clearTimeout(guard);
      void client.dispose();
      resolve(answer);
    };
    const guard = setTimeout(() => finish({ outcome: "timeout", body: "{}" }), 20_000);
    client.subscribe(
      { query: operation, variables },
      {
        next: (msg) => {
          if (msg.errors?.length)
            finish({ outcome: String(msg.errors[0]?.extensions?.code), body: JSON.stringify(msg) });
        },
        error: (e) => {
          if (Array.isArray(e)) {
            finish({ outcome: String(e[0]?.extensions?.code), body: JSON.stringify(e) });
          } else {
            const code = (e as { code?: number }).code;
            finish({ outcome: code === 4403 ? "UNAUTHENTICATED" : `closed ${code}`, body: JSON.stringify({ code }) });
          }
        },
        complete: () => finish({ outcome: "completed", body: "{}" }),
      },
    );
  });
}

function runGraphql(row: GraphqlRow, variables: Record<string, unknown>, c: Credentials): Promise<Answer> {
  return row.field.startsWith("Subscription.")
    ? runSubscription(row.operation, variables, c)
    : runQuery(row.operation, variables, c);
}

async function runRest(route: string, call: RestCall, c: Credentials): Promise<Answer> {
  const method = route.split(" ")[0]!;
  const res = await fetch(`${skiff.url}${call.url}`, {
    method,
    headers: { ...(call.body === undefined ? {} : { "content-type": "application/json" }), ...headersOf(c) },
    body: call.body === undefined ? undefined : JSON.stringify(call.body),
  });
  const contentType = res.headers.get("content-type") ?? undefined;
  return { outcome: String(res.status), body: await res.text(), ...(contentType && { contentType }) };
}

/** A deep copy of `vars` with the value at `path` replaced. */
function withValue(vars: Record<string, unknown>, path: string[], value: unknown): Record<string, unknown> {
  const copy = structuredClone(vars);
  let node = copy as Record<string, unknown>;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string, unknown>;
  node[path.at(-1)!] = value;
  return copy;
}

function valueAt(vars: Record<string, unknown>, path: string[]): string {
  return path.reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], vars) as string;
}

/** Problems of one cell: wrong outcome, a body that differs from the nonexistent-id twin, a leak. */
function leaks(persona: Persona, body: string): string[] {
  return FORBIDDEN_MARKERS[persona].filter((m) => body.includes(m)).map((m) => `leaks "${m}"`);
}

describe("coverage", () => {
  it("has a row for every Query, Mutation and Subscription field, and no row for a field that does not exist", async () => {
    const res = await runQuery(
      "{ __schema { queryType { fields { name } } mutationType { fields { name } } subscriptionType { fields { name } } } }",
      {},
      fx.credentials.owner,
    );
    const schema = (
      JSON.parse(res.body) as { data: { __schema: Record<string, { fields: Array<{ name: string }> } | null> } }
    ).data.__schema;
    const fields = [
      ...(schema.queryType?.fields ?? []).map((f) => `Query.${f.name}`),
      ...(schema.mutationType?.fields ?? []).map((f) => `Mutation.${f.name}`),
      ...(schema.subscriptionType?.fields ?? []).map((f) => `Subscription.${f.name}`),
    ];
    const rows = graphqlRows.map((r) => r.field);
    expect(
      fields.filter((f) => !rows.includes(f)),
      "fields without a row",
    ).toEqual([]);
    expect(
      rows.filter((r) => !fields.includes(r)),
      "rows without a field",
    ).toEqual([]);
    expect(new Set(rows).size, "duplicate rows").toBe(rows.length);
  });

  it("has a row for every REST route, and no row for a route that does not exist", () => {
    const routes = restRoutes.map((r) => `${r.method} ${r.path}`);
    const rows = restRows.map((r) => r.route);
    expect(
      routes.filter((r) => !rows.includes(r)),
      "routes without a row",
    ).toEqual([]);
    expect(
      rows.filter((r) => !routes.includes(r)),
      "rows without a route",
    ).toEqual([]);
    expect(new Set(rows).size, "duplicate rows").toBe(rows.length);
  });
});

describe("GraphQL", () => {
  for (const row of graphqlRows) {
    it(row.field, { timeout: 60_000 }, async () => {
      const problems: string[] = [];
      for (const persona of PERSONAS) {
        const vars = (await row.variables?.(fx, persona)) ?? {};
        const answer = await runGraphql(row, vars, fx.credentials[persona]);
        cellsRun++;
        await row.after?.(fx, persona);
        const expected = row.expect[persona];
        if (answer.outcome !== expected) {
          problems.push(`${persona}: expected ${expected}, got ${answer.outcome} ${answer.body.slice(0, 300)}`);
        }
        problems.push(...leaks(persona, answer.body).map((p) => `${persona}: ${p}`));
        if (expected === "NOT_FOUND" && row.target && answer.outcome === expected) {
          const id = valueAt(vars, row.target);
          const twinId = missingTwin(id);
          const twin = await runGraphql(row, withValue(vars, row.target, twinId), fx.credentials[persona]);
          if (answer.body.replaceAll(id, "<id>") !== twin.body.replaceAll(twinId, "<id>")) {
            problems.push(`${persona}: differs from a nonexistent id:\n  ${answer.body}\n  ${twin.body}`);
          }
        }
      }
      expect(problems).toEqual([]);
    });
  }
});

describe("REST", () => {
  for (const row of restRows) {
    it(row.route, { timeout: 60_000 }, async () => {
      const problems: string[] = [];
      for (const persona of PERSONAS) {
        const call = await row.call(fx, persona);
        const answer = await runRest(row.route, call, fx.credentials[persona]);
        cellsRun++;
        const expected = String(row.expect[persona]);
        if (answer.outcome !== expected) {
          problems.push(`${persona}: expected ${expected}, got ${answer.outcome} ${answer.body.slice(0, 300)}`);
        }
        problems.push(...leaks(persona, answer.body).map((p) => `${persona}: ${p}`));
        problems.push(
          ...(documented(row.route, Number(answer.outcome), answer.body, answer.contentType) ?? []).map(
            (p) => `${persona}: ${p}`,
          ),
        );
        if (expected === "404" && call.target && answer.outcome === expected) {
          const twinId = missingTwin(call.target);
          const swap = (s: string) => s.replaceAll(call.target!, twinId);
          const twinCall = {
            url: swap(call.url),
            body: call.body === undefined ? undefined : JSON.parse(swap(JSON.stringify(call.body))),
          };
          const twin = await runRest(row.route, twinCall, fx.credentials[persona]);
          if (
            twin.outcome !== answer.outcome ||
            answer.body.replaceAll(call.target, "<id>") !== twin.body.replaceAll(twinId, "<id>")
          ) {
            problems.push(`${persona}: differs from a nonexistent id:\n  ${answer.body}\n  ${twin.body}`);
          }
        }
      }
      expect(problems).toEqual([]);
    });
  }
});
