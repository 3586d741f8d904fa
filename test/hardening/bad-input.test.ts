/**
 * Invalid Unicode or NUL in any string input is a 400 naming the field (variables, inline literals, REST bodies,
 * graphql-ws), and a 404 NOT_FOUND in an id (no object has it); a subscription POSTed over HTTP and an unknown persisted-query hash get
 * client codes, not INTERNAL_SERVER_ERROR.
 */
import { request } from "node:http";
import { createClient } from "graphql-ws";
import { beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { createAgentTokenFor, createOrg } from "../helpers/seed.ts";
import { captureLogs, gql, useTestServer } from "../helpers/server.ts";
import { orgNumber } from "../webhooks/webhook-helpers.ts";

const logs = captureLogs("warn");
const t = useTestServer({}, logs.logger);
let org: Awaited<ReturnType<typeof createOrg>>;

beforeAll(async () => {
  org = await createOrg(t.db.knex);
});

const PREVIEW = `query($input: SiteImportInput!) { previewSiteImport(input: $input) { valid errors } }`;
const input = (password: string) => ({
  name: "site",
  source: { type: "docker", image: "nginx:1" },
  database: { type: "postgres", name: "db", user: "app", password },
});

/** POSTs a raw JSON text (so lone surrogates travel as `\ud800` escapes) to `path`. */
async function postRaw(path: string, body: string) {
  const res = await fetch(`${t.skiff.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${org.owner.apiKey}` },
    body,
  });
  return { status: res.status, text: await res.text() };
}

describe("invalid Unicode", () => {
  it("in a variable: 400 BAD_USER_INPUT naming the field", async () => {
    const body = JSON.stringify({ query: PREVIEW, variables: { input: input("PLACEHOLDER") } }).replace(
      "PLACEHOLDER",
      "pw\\ud800x",
    );
    const res = await postRaw("/graphql", body);
    expect(res.status).toBe(400);
    const json = JSON.parse(res.text);
    expect(json.errors[0].extensions.code).toBe("BAD_USER_INPUT");
    expect(json.errors[0].extensions.field).toBe("input.database.password");
  });

  it("in an inline literal (raw or escaped): 400, never a 5xx", async () => {
    for (const literal of ["\\ud800", "\\\\ud800"]) {
      const body = JSON.stringify({ query: '{ project(id: "PLACEHOLDER") { id } }' }).replace("PLACEHOLDER", literal);
      const res = await postRaw("/graphql", body);
      expect(res.status).toBe(400);
      expect(JSON.parse(res.text).errors[0].extensions.code).toMatch(/GRAPHQL_PARSE_FAILED|BAD_USER_INPUT/);
    }
  });

  it("on graphql-ws: the same refusal", async () => {
    const client = createClient({
      url: `${t.skiff.url.replace("http", "ws")}/graphql`,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      connectionParams: { authorization: `Bearer ${org.owner.apiKey}` },
    });
    const outcome = await new Promise<unknown>((resolve) => {
      client.subscribe(
        { query: "subscription($id: ID) { siteImportUpdated(id: $id) { importId } }", variables: { id: "\ud800" } },
        { next: resolve, error: resolve, complete: () => resolve(null) },
      );
    });
    // An id no object can have: NOT_FOUND, as over HTTP.
    expect(JSON.stringify(outcome)).toMatch(/No object has this id: \\"id\\" is not well-formed Unicode/);
    expect(JSON.stringify(outcome)).toContain("NOT_FOUND");
    await client.dispose();
  });
});

describe("the NUL character (no PostgreSQL text or jsonb can hold it)", () => {
  it("in a variable or an inline literal: 400 BAD_USER_INPUT naming the field (in an id: 404 NOT_FOUND), no statement fails", async () => {
    const warnings = logs.lines.length;
    const inVariable = await gql(
      t.skiff.url,
      "query($id: ID!) { project(id: $id) { id } }",
      { id: "prj_\u0000x" },
      {
        apiKey: org.owner.apiKey,
      },
    );
    expect(inVariable.status).toBe(404);
    expect(inVariable.errors?.[0]?.extensions).toMatchObject({ code: "NOT_FOUND", field: "id" });
    const inInput = await gql(
      t.skiff.url,
      `mutation($input: CreateProjectInput!) { createProject(input: $input) { id } }`,
      { input: { name: "a\u0000b" } },
      { apiKey: org.owner.apiKey },
    );
    expect(inInput.errors?.[0]?.extensions).toMatchObject({ code: "BAD_USER_INPUT", field: "input.name" });
    const literal = await postRaw("/graphql", JSON.stringify({ query: '{ project(id: "prj_\\u0000x") { id } }' }));
    expect(literal.status).toBe(404);
    expect(JSON.parse(literal.text).errors[0].extensions).toMatchObject({ code: "NOT_FOUND", field: "id" });
    const textLiteral = await postRaw(
      "/graphql",
      JSON.stringify({ query: 'mutation { createProject(input: { name: "a\\u0000b" }) { id } }' }),
    );
    expect(textLiteral.status).toBe(400);
    expect(JSON.parse(textLiteral.text).errors[0].extensions).toMatchObject({
      code: "BAD_USER_INPUT",
      field: "input.name",
    });
    // The refusal comes before any read: no statement fails, nothing is logged at warn or above.
    expect(logs.lines.slice(warnings)).toEqual([]);
  });

  it("in a REST body or query string: 400 naming the field as the client wrote it, not the GraphQL variable", async () => {
    const body = { url: "https://hooks.example.com/in", events: ["course_completed"], description: "a\u0000b" };
    const res = await postRaw(`/api/v1/orgs/${org.organizationId}/webhooks`, JSON.stringify(body));
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text)).toMatchObject({
      details: { fieldErrors: { description: ["Must not contain the NUL character (U+0000)"] } },
    });
    expect(await t.db.knex("webhook_endpoints").where("organization_id", org.organizationId)).toEqual([]);
    const query = await fetch(`${t.skiff.url}/api/audit-events?actor_user_id=${encodeURIComponent("u\u0000")}`, {
      headers: { authorization: `Bearer ${org.owner.apiKey}` },
    });
    expect(query.status).toBe(400);
    expect(await query.json()).toMatchObject({
      code: "BAD_USER_INPUT",
      fieldErrors: { actor_user_id: ["Must not contain the NUL character (U+0000)"] },
    });
  });
});

describe("credentials in customGitUrl (item 17: refused, use SSH keys or providers)", () => {
  it("answers 400 naming source.customGitUrl and stores nothing", async () => {
    for (const customGitUrl of [
      "https://bot:PW@git.example.com/team/app.git",
      "ssh://git:PW@git.example.com/app.git",
    ]) {
      const body = { organizationId: org.organizationId, name: "creds", source: { type: "git", customGitUrl } };
      const res = await postRaw("/api/site-import", JSON.stringify(body));
      expect(res.status).toBe(400);
      expect(Object.keys(JSON.parse(res.text).details.fieldErrors)).toEqual(["source.customGitUrl"]);
      expect(res.text).not.toContain("PW");
    }
    const [{ count }] = await t.db.knex("site_imports").where("name", "creds").count({ count: "*" });
    expect(Number(count)).toBe(0);
  });
});

describe("client mistakes get client codes", () => {
  it("a subscription POSTed over HTTP: 400 BAD_REQUEST", async () => {
    const res = await gql(t.skiff.url, "subscription { heartbeat }", {}, { apiKey: org.owner.apiKey });
    expect(res.status).toBe(400);
    expect(res.errors?.[0]?.extensions?.code).toBe("BAD_REQUEST");
  });

  it("an unknown persisted-query hash: PERSISTED_QUERY_NOT_FOUND", async () => {
    const res = await postRaw(
      "/graphql",
      JSON.stringify({ extensions: { persistedQuery: { version: 1, sha256Hash: "a".repeat(64) } } }),
    );
    expect(res.status).toBeLessThan(500);
    expect(JSON.parse(res.text).errors[0].extensions.code).toBe("PERSISTED_QUERY_NOT_FOUND");
  });
});

describe("input keys named like an object's own members", () => {
  const KEYS = ["toString", "constructor", "hasOwnProperty", "valueOf", "__defineGetter__"];

  it("unknown top-level keys of a REST body or a GraphQL JSON input: 400 naming the key, never a 500", async () => {
    const webhooks = `/api/v1/orgs/${await orgNumber(t.db.knex, org.organizationId)}/webhooks`;
    for (const key of KEYS) {
      for (const path of ["/api/application.create", "/api/site-import", "/api/site-import/preview", webhooks]) {
        const res = await postRaw(path, JSON.stringify({ [key]: 1 }));
        expect(res.status, `${path} ${key}`).toBe(400);
        expect(res.text, `${path} ${key}`).toContain(key);
      }
      const plan = await postRaw(
        "/graphql",
        JSON.stringify({
          query: `query($b: JSONObject!) { organizationImportPlan(organizationId: "${org.organizationId}", bundle: $b) { exists } }`,
          variables: { b: { [key]: 1 } },
        }),
      );
      expect(plan.status, key).toBeLessThan(500);
      expect(JSON.parse(plan.text).errors[0].extensions.code, key).toBe("BAD_USER_INPUT");
    }
    expect(logs.lines.filter((l) => l.level === 50)).toEqual([]);
  });
});

describe("two different credentials in one request", () => {
  it("are refused (401) on GraphQL, REST and the agent API; the same one in both headers is one credential", async () => {
    const token = await createAgentTokenFor(t.db.knex, org.organizationId, org.owner);
    const call = (path: string, headers: Record<string, string>) =>
      fetch(`${t.skiff.url}${path}`, {
        method: path === "/graphql" ? "POST" : "GET",
        headers: { "content-type": "application/json", ...headers },
        ...(path === "/graphql" ? { body: JSON.stringify({ query: "{ viewer { user { id } } }" }) } : {}),
      }).then((r) => r.status);
    const key = org.owner.apiKey;
    for (const [path, credential] of [
      ["/graphql", key],
      ["/api/site-import", key],
      ["/api/agent/projects", token],
    ] as const) {
      expect(await call(path, { authorization: `Bearer ${credential}` }), path).toBe(200);
      expect(await call(path, { authorization: `Bearer ${credential}`, "x-api-key": credential }), path).toBe(200);
      expect(await call(path, { authorization: `Bearer ${credential}`, "x-api-key": "bogus" }), path).toBe(401);
      expect(await call(path, { authorization: "Bearer bogus", "x-api-key": credential }), path).toBe(401);
    }
  });

  it("are refused (401) in one header repeated, on GraphQL, REST, /mcp and the agent API; the same one repeated is one", async () => {
    const other = await createOrg(t.db.knex);
    const token = await createAgentTokenFor(t.db.knex, org.organizationId, org.owner);
    const otherToken = await createAgentTokenFor(t.db.knex, other.organizationId, other.owner);
    // Node's fetch joins a repeated header into one line: node:http sends each value as a header line of its own.
    const call = (method: string, path: string, headers: Record<string, string | string[]>, body?: string) =>
      new Promise<number>((resolve, reject) => {
        const req = request(`${t.skiff.url}${path}`, { method, headers }, (res) => {
          res.resume();
          res.once("end", () => resolve(res.statusCode ?? 0));
        });
        req.once("error", reject);
        req.end(body);
      });
    const json = { "content-type": "application/json", accept: "application/json, text/event-stream" };
    const graphql = JSON.stringify({ query: "{ viewer { user { id } } }" });
    const mcp = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "whoami", arguments: {} },
    });
    for (const [method, path, body, first, second] of [
      ["POST", "/graphql", graphql, org.owner.apiKey, other.owner.apiKey],
      ["GET", "/api/site-import", undefined, org.owner.apiKey, other.owner.apiKey],
      ["POST", "/mcp", mcp, token, otherToken],
      ["GET", "/api/agent/projects", undefined, token, otherToken],
    ] as const) {
      const label = `${method} ${path}`;
      const bearer = (value: string) => `Bearer ${value}`;
      expect(await call(method, path, { ...json, authorization: [bearer(first), bearer(second)] }, body), label).toBe(
        401,
      );
      expect(await call(method, path, { ...json, authorization: [bearer(second), bearer(first)] }, body), label).toBe(
        401,
      );
      expect(await call(method, path, { ...json, "x-api-key": [first, second] }, body), label).toBe(401);
      expect(await call(method, path, { ...json, authorization: [bearer(first), "Basic eDp5"] }, body), label).toBe(
        401,
      );
      expect(await call(method, path, { ...json, authorization: [bearer(first), bearer(first)] }, body), label).toBe(
        200,
      );
      expect(await call(method, path, { ...json, "x-api-key": [first, first] }, body), label).toBe(200);
    }
  });
});
