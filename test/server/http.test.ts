/**
 * HTTP surface of the foundation: health probes, CSRF prevention, malformed input (JSON that does not parse, JSON
 * holding a key that could reach a prototype), error masking,
 * both API-key headers, and the WebSocket endpoint's authentication at connection_init.
 */
import { createClient } from "graphql-ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import type { RunningSkiff } from "../../src/server/start.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { createOrg } from "../helpers/seed.ts";
import { gql, startTestServer } from "../helpers/server.ts";

let db: TestDatabase;
let skiff: RunningSkiff;
let org: Awaited<ReturnType<typeof createOrg>>;
beforeAll(async () => {
  db = await createTestDatabase();
  skiff = await startTestServer(db.url);
  org = await createOrg(db.knex);
});
afterAll(async () => {
  await skiff?.stop();
  await db?.drop();
});

describe("health", () => {
  it("answers /healthz and /readyz", async () => {
    expect((await fetch(`${skiff.url}/healthz`)).status).toBe(200);
    const ready = await fetch(`${skiff.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: "ready" });
  });
});

describe("credentials", () => {
  const VIEWER = "{ viewer { authenticatedBy role user { email } activeOrganization { id } } }";

  it("accepts Authorization: Bearer and x-api-key equally", async () => {
    for (const header of ["bearer", "x-api-key"] as const) {
      const res = await gql(skiff.url, VIEWER, {}, { apiKey: org.owner.apiKey, header });
      expect(res.errors).toBeUndefined();
      expect(res.data).toEqual({
        viewer: {
          authenticatedBy: "api_key",
          role: "owner",
          user: { email: org.owner.email },
          activeOrganization: { id: org.organizationId },
        },
      });
    }
  });

  it("answers UNAUTHENTICATED without or with a wrong key", async () => {
    for (const apiKey of [undefined, "skiff_not-a-real-key"]) {
      const res = await gql(skiff.url, VIEWER, {}, { apiKey });
      expect(res.status).toBe(401);
      // Without a key: an execution error (data null); with a wrong key: a request error (no data at all).
      expect(res.data ?? null).toBeNull();
      expect(res.errors?.[0]?.extensions?.code).toBe("UNAUTHENTICATED");
    }
  });
});

describe("bad input", () => {
  it("rejects malformed JSON with 400 and a GraphQL-shaped error", async () => {
    const res = await fetch(`${skiff.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${org.owner.apiKey}` },
      body: "{not json",
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { errors: Array<{ message: string; extensions: { code: string } }> };
    expect(body.errors[0]?.extensions.code).toBe("BAD_REQUEST");
    expect(body.errors[0]?.message).toMatch(/not valid JSON/);
  });

  it("refuses a well-formed body holding __proto__ or constructor.prototype with 400 naming the key", async () => {
    const bodies = [
      '{"query":"{ __typename }","variables":{"__proto__":{"admin":true}}}',
      '{"query":"{ __typename }","variables":{"constructor":{"prototype":{"admin":true}}}}',
    ];
    for (const [path, headers] of [
      ["/graphql", { authorization: `Bearer ${org.owner.apiKey}` }],
      ["/api/site-import", { "x-api-key": org.owner.apiKey }],
    ] as const) {
      for (const raw of bodies) {
        const res = await fetch(`${skiff.url}${path}`, {
          method: "POST",
          headers: { "content-type": "application/json", ...headers },
          body: raw,
        });
        expect(res.status).toBe(400);
        const text = await res.text();
        expect(text).toContain("forbidden key");
        expect(text).not.toContain("not valid JSON");
      }
    }
    expect(({} as { admin?: boolean }).admin).toBeUndefined();
  });

  it("answers a path parameter over 100 characters or a bad percent-encoding with 404 NOT_FOUND, URL not repeated", async () => {
    const long = "x".repeat(5000);
    const headers = { "x-api-key": org.owner.apiKey };
    const tooLong = await fetch(`${skiff.url}/api/v1/orgs/${long}/webhooks`, { headers });
    expect(tooLong.status).toBe(404);
    const tooLongText = await tooLong.text();
    expect(JSON.parse(tooLongText)).toEqual({
      error: "No resource has an id that long (path parameters are at most 100 characters)",
      code: "NOT_FOUND",
    });
    const badEncoding = await fetch(`${skiff.url}/api/v1/orgs/%E0%A4%A/webhooks`, { headers });
    expect(badEncoding.status).toBe(404);
    expect(await badEncoding.json()).toEqual({
      error: "No resource has this path: it does not decode as percent-encoded UTF-8",
      code: "NOT_FOUND",
    });
  });

  it("names a body over the limit PAYLOAD_TOO_LARGE (413) and one not JSON UNSUPPORTED_MEDIA_TYPE (415)", async () => {
    const post = async (path: string, contentType: string, body: string) => {
      const res = await fetch(`${skiff.url}${path}`, {
        method: "POST",
        headers: { "content-type": contentType, "x-api-key": org.owner.apiKey },
        body,
      });
      // biome-ignore lint/suspicious/noExplicitAny: the two answer shapes are read field by field below.
      return { status: res.status, json: () => res.json() as Promise<any> };
    };
    const big = JSON.stringify({ query: `{ __typename }`, variables: { pad: "x".repeat(1024 * 1024) } });
    const tooLarge = await post("/graphql", "application/json", big);
    expect(tooLarge.status).toBe(413);
    expect((await tooLarge.json()).errors[0].extensions.code).toBe("PAYLOAD_TOO_LARGE");
    const restTooLarge = await post("/api/site-import/preview", "application/json", big);
    expect(restTooLarge.status).toBe(413);
    expect((await restTooLarge.json()).code).toBe("PAYLOAD_TOO_LARGE");
    const form = await post("/api/site-import/preview", "application/x-www-form-urlencoded", "name=x");
    expect(form.status).toBe(415);
    expect((await form.json()).code).toBe("UNSUPPORTED_MEDIA_TYPE");
    // An Accept header allowing no JSON answer: 406 NOT_ACCEPTABLE on /graphql too (Apollo's refusal, named alike).
    const html = await fetch(`${skiff.url}/graphql`, {
      method: "POST",
      headers: { accept: "text/html", "content-type": "application/json", "x-api-key": org.owner.apiKey },
      body: JSON.stringify({ query: "{ __typename }" }),
    });
    expect(html.status).toBe(406);
    expect(
      ((await html.json()) as { errors: Array<{ extensions: { code: string } }> }).errors[0]!.extensions.code,
    ).toBe("NOT_ACCEPTABLE");
    // JSON sent as text is not read as a string (that the row would call "not an object"): 415 as any other type.
    const asText = await post("/api/site-import/preview", "text/plain", JSON.stringify({ name: "x" }));
    expect(asText.status).toBe(415);
    expect((await asText.json()).code).toBe("UNSUPPORTED_MEDIA_TYPE");
  });

  it("answers a path no route takes, or a method its path does not take, with 404 NOT_FOUND in the same shape", async () => {
    for (const [method, path] of [
      ["GET", "/no/such/path"],
      ["PATCH", "/api/v1/orgs/1/webhooks/whk_x"],
      ["POST", "/api/agent/projects"],
      ["POST", "/api/whoami"],
    ] as const) {
      const res = await fetch(`${skiff.url}${path}`, { method, headers: { "x-api-key": org.owner.apiKey } });
      expect(res.status, `${method} ${path}`).toBe(404);
      const message = `No route answers ${method} on this path`;
      // The agent API's paths answer in its own error body.
      const agent = path.startsWith("/api/agent/");
      expect(await res.json()).toEqual(agent ? { message, code: "NOT_FOUND" } : { error: message, code: "NOT_FOUND" });
    }
  });

  it("blocks simple GET requests without a preflight header (CSRF prevention)", async () => {
    const url = `${skiff.url}/graphql?query=${encodeURIComponent("{ viewer { role } }")}`;
    const blocked = await fetch(url, { headers: { authorization: `Bearer ${org.owner.apiKey}` } });
    expect(blocked.status).toBe(400);
    const allowed = await fetch(url, {
      headers: { authorization: `Bearer ${org.owner.apiKey}`, "apollo-require-preflight": "1" },
    });
    expect(await allowed.json()).toEqual({ data: { viewer: { role: "owner" } } });
  });

  it("answers BAD_USER_INPUT for out-of-range page sizes and foreign cursors", async () => {
    const tooMany = await gql(skiff.url, "{ projects(first: 101) { totalCount } }", {}, { apiKey: org.owner.apiKey });
    expect(tooMany.errors?.[0]?.extensions).toMatchObject({
      code: "BAD_USER_INPUT",
      fieldErrors: { first: [expect.any(String)] },
    });
    const cursor = await gql(
      skiff.url,
      '{ projects(after: "garbage") { totalCount } }',
      {},
      { apiKey: org.owner.apiKey },
    );
    expect(cursor.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
  });

  it("answers GRAPHQL_VALIDATION_FAILED for unknown fields and wrong variable types", async () => {
    const res = await gql(skiff.url, "{ nope }", {}, { apiKey: org.owner.apiKey });
    expect(res.status).toBe(400);
    expect(res.errors?.[0]?.extensions?.code).toBe("GRAPHQL_VALIDATION_FAILED");
    const vars = await gql(
      skiff.url,
      "query($id: ID!) { project(id: $id) { id } }",
      { id: { x: 1 } },
      { apiKey: org.owner.apiKey },
    );
    expect(vars.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
  });

  it("answers 404 NOT_FOUND naming the field, not a 500, for ids PostgreSQL cannot compare (NUL byte)", async () => {
    const res = await gql(
      skiff.url,
      "query($id: ID!) { project(id: $id) { id } }",
      { id: "prj_\u0000x" },
      { apiKey: org.owner.apiKey },
    );
    expect(res.status).toBe(404);
    expect(res.errors?.[0]?.extensions).toMatchObject({ code: "NOT_FOUND", field: "id" });
  });

  it("rejects operations deeper than SKIFF_MAX_QUERY_DEPTH, on HTTP and WebSocket alike", async () => {
    let deep = "id";
    for (let i = 0; i < 8; i++) deep = `project { environments { applications { ${deep} } } }`;
    const query = `{ application(id: "app_x") { ${deep} } }`;
    const res = await gql(skiff.url, query, {}, { apiKey: org.owner.apiKey });
    expect(res.status).toBe(400);
    expect(res.errors?.[0]?.extensions?.code).toBe("GRAPHQL_VALIDATION_FAILED");
    expect(res.errors?.[0]?.message).toMatch(/depth/i);
    const client = createClient({
      url: `${skiff.url.replace("http", "ws")}/graphql`,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      connectionParams: { authorization: `Bearer ${org.owner.apiKey}` },
    });
    const errors = await new Promise<unknown>((resolve) => {
      client.subscribe({ query }, { next: () => {}, error: resolve, complete: () => resolve(null) });
    });
    expect(JSON.stringify(errors)).toMatch(/depth/i);
    await client.dispose();
  });

  it("masks unexpected failures as INTERNAL_SERVER_ERROR without internals", async () => {
    // A database failure inside a resolver: the loader's query fails once the table is gone.
    await db.knex.raw("alter table plans rename to plans_gone");
    try {
      const res = await gql(skiff.url, "{ organizations { plan { name } } }", {}, { apiKey: org.owner.apiKey });
      const error = res.errors?.[0];
      expect(error?.extensions?.code).toBe("INTERNAL_SERVER_ERROR");
      expect(error?.message).toBe("Internal server error");
      expect(JSON.stringify(res)).not.toContain("plans");
      expect(error?.extensions?.errorId).toEqual(expect.any(String));
    } finally {
      await db.knex.raw("alter table plans_gone rename to plans");
    }
  });
});

describe("WebSocket endpoint", () => {
  const wsUrl = () => `${skiff.url.replace("http", "ws")}/graphql`;

  it("closes a connection without credentials with 4403", async () => {
    const client = createClient({ url: wsUrl(), webSocketImpl: WebSocket, retryAttempts: 0, lazy: false });
    const closed = await new Promise<number>((resolve) =>
      client.on("closed", (e) => resolve((e as { code: number }).code)),
    );
    expect(closed).toBe(4403);
    await client.dispose();
  });

  it("accepts a connection authenticated in connection_init", async () => {
    const client = createClient({
      url: wsUrl(),
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      connectionParams: { authorization: `Bearer ${org.owner.apiKey}` },
    });
    const result = await new Promise((resolve, reject) => {
      client.subscribe({ query: "{ viewer { role } }" }, { next: resolve, error: reject, complete: () => {} });
    });
    expect(result).toEqual({ data: { viewer: { role: "owner" } } });
    await client.dispose();
  });

  it("reads the connection_init keys in any case, as HTTP header names", async () => {
    for (const connectionParams of [
      { Authorization: `Bearer ${org.owner.apiKey}` },
      { "X-API-Key": org.owner.apiKey },
    ]) {
      const client = createClient({ url: wsUrl(), webSocketImpl: WebSocket, retryAttempts: 0, connectionParams });
      const result = await new Promise((resolve, reject) => {
        client.subscribe({ query: "{ viewer { role } }" }, { next: resolve, error: reject, complete: () => {} });
      });
      expect(result, Object.keys(connectionParams)[0]).toEqual({ data: { viewer: { role: "owner" } } });
      await client.dispose();
    }
  });
});
