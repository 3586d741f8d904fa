/**
 * How request bytes reach the server, over real HTTP on loopback: a JSON body that is not well-formed UTF-8 is
 * refused (400 BAD_REQUEST) on every JSON surface rather than stored with U+FFFD; a `charset` other than utf-8 is
 * 415, on the rows that read raw bytes too (payment callback, deploy URL, /api/auth/*); a REST body that is JSON but
 * not an object (`null` as `[]`) is 400 BAD_REQUEST before the row; a `Content-Encoding` other than `identity` is
 * 415 on every route that takes a body; GET /graphql never serves
 * Apollo's landing page; a GET's `variables`/`extensions` holding `__proto__` (or `prototype` inside `constructor`)
 * are refused as in a POST body; every pre-route REST refusal carries the spec's `details` shape; and a path
 * parameter too long, or a path that does not decode, is 404 NOT_FOUND (no resource has such an id). A response
 * whose data is not null is a 2xx, a refused field's error beside it. `/api/auth/*` refuses bodies and answers unknown
 * paths as the other `/api` paths do; a cookie-authenticated request that changes something from an untrusted
 * `Origin` is 403 INVALID_ORIGIN.
 */
import { gzipSync } from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";
import { createOrg } from "../helpers/seed.ts";
import { useTestServer } from "../helpers/server.ts";
import { sessionFor } from "../helpers/session.ts";

const TRUSTED = "https://dashboard.example";
const t = useTestServer({ SKIFF_WORKER: "false", SKIFF_TRUSTED_ORIGINS: TRUSTED });
let apiKey: string;
let owner: Awaited<ReturnType<typeof createOrg>>["owner"];
let organizationId: string;

beforeAll(async () => {
  ({ owner, organizationId } = await createOrg(t.db.knex));
  apiKey = owner.apiKey;
});

/** An answer: status, content type and body (parsed when JSON). */
interface Answer {
  status: number;
  type: string;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: answers of several shapes, read field by field.
  json: any;
}

async function send(
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: string | Buffer },
): Promise<Answer> {
  const res = await fetch(`${t.skiff.url}${path}`, {
    method: init.method ?? "POST",
    headers: { authorization: `Bearer ${apiKey}`, ...init.headers },
    body: init.body,
    redirect: "manual",
  });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, type: res.headers.get("content-type") ?? "", text, json };
}

/** `before`, the byte 0xFF (never valid in UTF-8), `after`, as one buffer. */
const withFF = (before: string, after: string) =>
  Buffer.concat([Buffer.from(before, "utf8"), Buffer.from([0xff]), Buffer.from(after, "utf8")]);

const CREATE_PROJECT = "mutation($input: CreateProjectInput!) { createProject(input: $input) { name } }";

/** The code of an answer in either shape (`{ errors }` on /graphql, `{ error, code }` elsewhere). */
const codeOf = (a: Answer): unknown => a.json?.errors?.[0]?.extensions?.code ?? a.json?.code;
/** The refusal's message: GraphQL's `errors[0].message`, REST's `error`, or `/mcp`'s `message` (its `error` is JSON-RPC's). */
const messageOf = (a: Answer): string =>
  String(a.json?.errors?.[0]?.message ?? (typeof a.json?.error === "string" ? a.json.error : a.json?.message));

describe("JSON bodies that are not well-formed UTF-8", () => {
  it("are refused with 400 BAD_REQUEST on /graphql, nothing stored", async () => {
    const body = withFF(`{"query":${JSON.stringify(CREATE_PROJECT)},"variables":{"input":{"name":"bad`, 'utf"}}}');
    const answer = await send("/graphql", { headers: { "content-type": "application/json" }, body });
    expect(answer.status, answer.text).toBe(400);
    expect(codeOf(answer)).toBe("BAD_REQUEST");
    expect(messageOf(answer)).toMatch(/not valid UTF-8/);
    expect(await t.db.knex("projects").where("name", "like", "bad%utf")).toEqual([]);
    // Overlong encodings and lone surrogates encoded as UTF-8 bytes are not well-formed either.
    for (const bad of [Buffer.from([0xc0, 0xaf]), Buffer.from([0xed, 0xa0, 0x80])]) {
      const overlong = Buffer.concat([
        Buffer.from('{"query":"{ __typename }","variables":{"x":"'),
        bad,
        Buffer.from('"}}'),
      ]);
      const refused = await send("/graphql", { headers: { "content-type": "application/json" }, body: overlong });
      expect(refused.status, bad.toString("hex")).toBe(400);
    }
  });

  it("are refused with 400 BAD_REQUEST, with the spec's details on REST rows and JSON-RPC's shape on /mcp", async () => {
    for (const path of ["/api/site-import", "/api/site-import/preview", "/api/v1/orgs/1/webhooks"]) {
      const answer = await send(path, {
        headers: { "content-type": "application/json" },
        body: withFF('{"name":"bad', 'utf","sourceUrl":"https://example.com"}'),
      });
      expect(answer.status, `${path} ${answer.text}`).toBe(400);
      expect(answer.json, path).toEqual({
        error: expect.stringMatching(/not valid UTF-8/),
        code: "BAD_REQUEST",
        details: { fieldErrors: {}, formErrors: [answer.json.error] },
      });
    }
    const mcp = await send("/mcp", {
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: withFF('{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"x":"', '"}}'),
    });
    expect(mcp.status, mcp.text).toBe(400);
    expect(codeOf(mcp)).toBe("BAD_REQUEST");
    expect(messageOf(mcp)).toMatch(/not valid UTF-8/);
    // /mcp answers in its transport's JSON-RPC shape (a body that does not parse: -32700).
    expect(mcp.json).toMatchObject({ jsonrpc: "2.0", error: { code: -32700 }, id: null });
  });

  it("well-formed UTF-8 beyond ASCII is still read as such", async () => {
    const answer = await send("/graphql", {
      headers: { "content-type": "application/json; charset=utf-8" },
      body: Buffer.from(JSON.stringify({ query: CREATE_PROJECT, variables: { input: { name: "café 🚀 日本" } } })),
    });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.json.data.createProject.name).toBe("café 🚀 日本");
  });
});

describe("charsets other than utf-8", () => {
  it("answer 415 UNSUPPORTED_MEDIA_TYPE; utf-8 in any case, quoted or not, is read", async () => {
    const body = JSON.stringify({ query: "{ __typename }" });
    for (const path of ["/graphql", "/api/site-import/preview", "/mcp", "/api/auth/sign-in/email"]) {
      for (const charset of ["iso-8859-1", "utf-16", '"UTF-16LE"', "latin1", "utf8x", ""]) {
        const answer = await send(path, { headers: { "content-type": `application/json; charset=${charset}` }, body });
        expect(answer.status, `${path} ${charset} ${answer.text}`).toBe(415);
        expect(codeOf(answer), `${path} ${charset}`).toBe("UNSUPPORTED_MEDIA_TYPE");
      }
    }
    for (const charset of ["utf-8", "UTF-8", '"utf-8"', "Utf-8", "utf8", "UTF8"]) {
      const answer = await send("/graphql", {
        headers: { "content-type": `application/json;charset=${charset}` },
        body,
      });
      expect(answer.status, `${charset} ${answer.text}`).toBe(200);
      expect(answer.json).toEqual({ data: { __typename: "Query" } });
    }
  });
});

describe("charsets other than utf-8 on the rows that read raw bytes", () => {
  it("answer 415 before the row runs: the payment callback, the deploy URL, /api/auth/*", async () => {
    for (const [path, body] of [
      ["/api/payment-gateway/events", '{"merchantCode":"m"}'],
      ["/api/deploy/not-a-token", "{}"],
      ["/api/auth/sign-in/email", '{"email":"a@example.com","password":"x"}'],
    ] as const) {
      for (const charset of ["utf-16", "latin1", '"ISO-8859-1"']) {
        const answer = await send(path, { headers: { "content-type": `application/json; charset=${charset}` }, body });
        const what = `${path} ${charset}: ${answer.text}`;
        expect(answer.status, what).toBe(415);
        expect(answer.json, what).toEqual({
          error: expect.stringMatching(/^Unsupported charset/),
          code: "UNSUPPORTED_MEDIA_TYPE",
          details: { fieldErrors: {}, formErrors: [answer.json.error] },
        });
      }
      // UTF-8 labels are read as before (the row's own answer, whatever it is).
      const read = await send(path, { headers: { "content-type": "application/json; charset=UTF-8" }, body });
      expect(read.status, `${path} ${read.text}`).not.toBe(415);
    }
  });
});

describe("JSON bodies that are not objects", () => {
  it("are refused before the row on every REST row with 400 BAD_REQUEST, `null` as `[]`", async () => {
    for (const path of [
      "/api/project.create",
      "/api/site-import/preview",
      "/api/v1/orgs/1/webhooks",
      "/api/docs/sync",
    ]) {
      for (const body of ["null", "[]", '"x"', "1", "true", " null "]) {
        const answer = await send(path, { headers: { "content-type": "application/json" }, body });
        const what = `${path} ${body}: ${answer.text}`;
        expect(answer.status, what).toBe(400);
        expect(answer.json, what).toEqual({
          error: expect.stringMatching(/^Body must be a JSON object, not (null|an array|a string|a number|a boolean)/),
          code: "BAD_REQUEST",
          details: { fieldErrors: {}, formErrors: [answer.json.error] },
        });
      }
    }
    // An object reaches the row's own checks; no body is no body (the row's documented answer).
    const object = await send("/api/project.create", { headers: { "content-type": "application/json" }, body: "{}" });
    expect(object.status).toBe(400);
    expect(object.json.error.fieldErrors).toEqual({ name: ["Required"] });
    const empty = await send("/api/project.create", { headers: { "content-type": "application/json" }, body: "" });
    expect(empty.json).toEqual(object.json);
  });
});

describe("Content-Encoding", () => {
  it("other than identity answers 415 naming the encoding, on every route that takes a body", async () => {
    const plain = JSON.stringify({ query: "{ __typename }" });
    const cases: Array<[string, string, Buffer | string]> = [
      ["/graphql", "gzip", gzipSync(plain)],
      ["/graphql", "foo", plain],
      ["/api/site-import/preview", "gzip", gzipSync('{"name":"x"}')],
      ["/api/site-import", "foo", '{"name":"x"}'],
      ["/api/v1/orgs/1/webhooks", "br", '{"url":"https://example.com"}'],
      ["/mcp", "deflate", '{"jsonrpc":"2.0","id":1,"method":"tools/list"}'],
      ["/api/auth/sign-in/email", "gzip", gzipSync('{"email":"a@example.com","password":"x"}')],
      ["/api/deploy/not-a-token", "gzip", gzipSync("{}")],
    ];
    for (const [path, encoding, body] of cases) {
      const answer = await send(path, {
        headers: { "content-type": "application/json", "content-encoding": encoding },
        body,
      });
      const what = `${path} ${encoding}: ${answer.text}`;
      expect(answer.status, what).toBe(415);
      expect(codeOf(answer), what).toBe("UNSUPPORTED_MEDIA_TYPE");
      expect(messageOf(answer), what).toContain(`"${encoding}"`);
      expect(messageOf(answer), what).toMatch(/not supported/);
    }
    // `identity` (any case) is no encoding at all.
    const identity = await send("/graphql", {
      headers: { "content-type": "application/json", "content-encoding": "Identity" },
      body: plain,
    });
    expect(identity.status, identity.text).toBe(200);
  });
});

describe("GET /graphql asking for HTML", () => {
  it("serves no landing page: answers as a GET without a query, in GraphQL's error shape", async () => {
    const variants: Array<Record<string, string>> = [
      { accept: "text/html" },
      { accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8" },
      { accept: "text/html", "apollo-require-preflight": "true" },
    ];
    for (const headers of variants) {
      const answer = await send("/graphql", { method: "GET", headers });
      const what = `${JSON.stringify(headers)}: ${answer.status} ${answer.text.slice(0, 200)}`;
      expect(answer.status, what).toBeGreaterThanOrEqual(400);
      expect(answer.status, what).toBeLessThan(500);
      expect(answer.type, what).not.toMatch(/html/);
      expect(answer.text, what).not.toMatch(/<html|<script|apollographql|embeddable-sandbox/i);
      expect(typeof codeOf(answer), what).toBe("string");
    }
  });
});

describe("GET /graphql variables and extensions", () => {
  const get = (params: Record<string, string>) =>
    send(`/graphql?${new URLSearchParams(params)}`, {
      method: "GET",
      headers: { "apollo-require-preflight": "true", accept: "application/json" },
    });
  const query = "query($x: Boolean = false) { __typename @skip(if: $x) }";

  it("holding __proto__ or constructor.prototype are refused with 400 BAD_REQUEST, as in a POST body", async () => {
    const forbidden = [
      '{"__proto__":{"admin":true}}',
      '{"x":"a","nested":{"__proto__":{"admin":true}}}',
      '{"constructor":{"prototype":{"admin":true}}}',
    ];
    for (const text of forbidden) {
      for (const name of ["variables", "extensions"]) {
        const answer = await get({ query, [name]: text });
        const what = `${name}=${text}: ${answer.text}`;
        expect(answer.status, what).toBe(400);
        expect(codeOf(answer), what).toBe("BAD_REQUEST");
        expect(messageOf(answer), what).toMatch(/forbidden key/);
      }
      // The same document in a POST body is refused alike.
      const posted = await send("/graphql", {
        headers: { "content-type": "application/json" },
        body: `{"query":${JSON.stringify(query)},"variables":${text}}`,
      });
      expect(posted.status, posted.text).toBe(400);
      expect(messageOf(posted)).toMatch(/forbidden key/);
    }
    expect(({} as { admin?: boolean }).admin).toBeUndefined();
    // Harmless keys still work.
    const fine = await get({ query, variables: '{"x":false,"constructor":"x","prototype":{}}' });
    expect(fine.status, fine.text).toBe(200);
    expect(fine.json).toEqual({ data: { __typename: "Query" } });
  });
});

describe("pre-route REST refusals", () => {
  it("carry { error, code, details: { fieldErrors: {}, formErrors: [error] } }; GraphQL keeps { errors }", async () => {
    const cases: Array<[string, Record<string, string>, string, number, string]> = [
      ["/api/site-import", { "content-type": "application/json" }, '{"name":', 400, "BAD_REQUEST"],
      ["/api/site-import", { "content-type": "application/json" }, '{"__proto__":{}}', 400, "BAD_REQUEST"],
      [
        "/api/site-import",
        { "content-type": "application/x-www-form-urlencoded" },
        "name=x",
        415,
        "UNSUPPORTED_MEDIA_TYPE",
      ],
      ["/api/site-import/preview", { "content-type": "text/plain" }, "{}", 415, "UNSUPPORTED_MEDIA_TYPE"],
      [
        "/api/site-import",
        { "content-type": "application/json" },
        JSON.stringify({ pad: "x".repeat(1024 * 1024) }),
        413,
        "PAYLOAD_TOO_LARGE",
      ],
    ];
    for (const [path, headers, body, status, code] of cases) {
      const answer = await send(path, { headers, body });
      const what = `${path} ${body.slice(0, 30)}: ${answer.text.slice(0, 300)}`;
      expect(answer.status, what).toBe(status);
      expect(answer.json, what).toEqual({
        error: expect.any(String),
        code,
        details: { fieldErrors: {}, formErrors: [answer.json.error] },
      });
    }
    const graphql = await send("/graphql", { headers: { "content-type": "application/json" }, body: '{"query":' });
    expect(graphql.status).toBe(400);
    expect(graphql.json).toEqual({ errors: [{ message: expect.any(String), extensions: { code: "BAD_REQUEST" } }] });
  });
});

describe("URLs no resource can have", () => {
  it("a path parameter over 100 characters or a path that does not decode answers 404 NOT_FOUND", async () => {
    const cases = [
      `/api/site-import/${"x".repeat(101)}`,
      `/api/site-import/${"x".repeat(5000)}`,
      "/api/site-import/%FF",
      "/api/v1/orgs/%E0%A4%A/webhooks",
      `/api/v1/orgs/1/webhooks/${"w".repeat(300)}`,
    ];
    for (const path of cases) {
      const answer = await send(path, { method: "GET" });
      const what = `${path.slice(0, 40)}: ${answer.text.slice(0, 300)}`;
      expect(answer.status, what).toBe(404);
      expect(answer.json?.code, what).toBe("NOT_FOUND");
      expect(answer.json?.error, what).toMatch(/no resource has/i);
      // The URL is not repeated (it may be megabytes long).
      expect(answer.text, what).not.toContain("xxxxxxxxxx");
      expect(answer.text, what).not.toContain("%FF");
    }
    // Exactly 100 characters is an id like any other: the row's own 404.
    const hundred = await send(`/api/site-import/${"x".repeat(100)}`, { method: "GET" });
    expect(hundred.status, hundred.text).toBe(404);
  });
});

describe("ids that hold text no id can hold", () => {
  it("a path parameter holding NUL answers its row's 404, as any id that names nothing", async () => {
    const org = await createOrg(t.db.knex);
    const orgId = org.organizationId;
    const hooks = `/api/v1/orgs/${orgId}/webhooks`;
    const cases: Array<[string, string, string?]> = [
      ["GET", "/api/site-import/abc%00"],
      ["GET", "/api/site-import/%00"],
      ["GET", "/api/v1/orgs/%00/webhooks"],
      ["GET", "/api/v1/orgs/org%00x/webhooks/events"],
      ["POST", "/api/v1/orgs/%00/events", JSON.stringify({ event: "course_completed", data: {} })],
      ["GET", `${hooks}/a%00`],
      ["PUT", `${hooks}/a%00`, "{}"],
      ["DELETE", `${hooks}/a%00`],
      ["POST", `${hooks}/a%00/regenerate-secret`],
      ["POST", `${hooks}/a%00/test`],
      ["GET", `${hooks}/a%00/deliveries`],
      ["POST", `${hooks}/a%00/deliveries/d/redeliver`],
      ["POST", `${hooks}/a/deliveries/dlv_%00/redeliver`],
      ["POST", `${hooks}/a%00/recover`, JSON.stringify({ since: "2026-01-01T00:00:00Z" })],
      ["GET", "/api/organizations/a%00/export"],
      ["POST", "/api/organizations/a%00/import-plan", JSON.stringify({ bundle: {} })],
      ["POST", "/api/organizations/a%00/import", JSON.stringify({ bundle: {} })],
      ["POST", "/api/deploy/a%00", "{}"],
      ["GET", "/o/1%00/api/theme"],
    ];
    for (const [method, path, body] of cases) {
      const answer = await send(path, {
        method,
        headers: { authorization: `Bearer ${org.owner.apiKey}`, ...(body && { "content-type": "application/json" }) },
        body,
      });
      const what = `${method} ${path}: ${answer.text.slice(0, 300)}`;
      expect(answer.status, what).toBe(404);
      expect(answer.text, what).not.toMatch(/invalid (text|byte sequence)/i);
    }
    // The documented row keeps its documented 404 body.
    const imported = await send("/api/site-import/abc%00", { method: "GET" });
    expect(imported.json).toEqual({ error: expect.any(String) });
  });

  it("an id holding NUL in a procedure's body answers 404, as any id that names nothing; another field stays 400", async () => {
    const org = await createOrg(t.db.knex);
    const auth = { authorization: `Bearer ${org.owner.apiKey}`, "content-type": "application/json" };
    const nul = "a\u0000";
    const cases: Array<[string, Record<string, unknown>]> = [
      ["/api/siteImport.get", { siteImportId: nul }],
      ["/api/siteImport.delete", { siteImportId: nul }],
      ["/api/application.delete", { applicationId: nul }],
      ["/api/project.update", { projectId: nul, name: "x" }],
      [
        "/api/database.create",
        { environmentId: "env_x", type: "postgres", name: "d", user: "u", applicationIds: [nul] },
      ],
    ];
    for (const [path, body] of cases) {
      const answer = await send(path, { method: "POST", headers: auth, body: JSON.stringify(body) });
      expect(answer.status, `${path}: ${answer.text.slice(0, 300)}`).toBe(404);
    }
    const named = await send("/api/project.create", {
      method: "POST",
      headers: auth,
      body: JSON.stringify({ name: nul }),
    });
    expect(named.status, named.text).toBe(400);
  });

  it("a text query parameter given twice is a 400 naming it, on every row that reads one", async () => {
    const org = await createOrg(t.db.knex);
    const auth = { authorization: `Bearer ${org.owner.apiKey}` };
    const input = encodeURIComponent(JSON.stringify({ limit: 1 }));
    for (const path of [
      `/api/audit-events?since=2030-01-01T00:00:00Z&since=2020-01-01T00:00:00Z`,
      `/api/organizations/${org.organizationId}/export?recipient=&recipient=x`,
      `/api/siteImport.list?input=${input}&input=${input}`,
      "/api/docs/lookup?hostname=a.example.com&hostname=b.example.com",
    ]) {
      const answer = await send(path, { method: "GET", headers: auth });
      expect(answer.status, `${path}: ${answer.text.slice(0, 300)}`).toBe(400);
      expect(answer.text, path).toContain("Must be given once");
    }
  });

  it("a GraphQL id holding NUL or a lone surrogate is NOT_FOUND naming the field; other text fields stay 400", async () => {
    const graphql = (body: string) => send("/graphql", { headers: { "content-type": "application/json" }, body });
    const cases = [
      JSON.stringify({ query: "query($id: ID!) { siteImport(id: $id) { id } }", variables: { id: "abc\u0000" } }),
      JSON.stringify({ query: '{ siteImport(id: "abc\\u0000") { id } }' }),
      JSON.stringify({
        query: "query($id: ID!) { project(id: $id) { id } }",
        variables: { id: "PLACEHOLDER" },
      }).replace("PLACEHOLDER", "prj_\\ud800"),
      JSON.stringify({
        query: "mutation($input: AddDomainInput!) { addDomain(input: $input) { id } }",
        variables: { input: { applicationId: "app_\u0000", host: "shop.example.com" } },
      }),
    ];
    for (const body of cases) {
      const answer = await graphql(body);
      const what = `${body}: ${answer.text.slice(0, 300)}`;
      expect(answer.status, what).toBe(404);
      expect(answer.json.errors[0].extensions, what).toMatchObject({ code: "NOT_FOUND", field: expect.any(String) });
    }
    const name = await graphql(JSON.stringify({ query: CREATE_PROJECT, variables: { input: { name: "a\u0000" } } }));
    expect(name.status).toBe(400);
    expect(name.json.errors[0].extensions).toMatchObject({ code: "BAD_USER_INPUT", field: "input.name" });
  });
});

describe("a response with data beside a refused field", () => {
  it("is a 2xx in both media types; without data the refusal's status stays (GraphQL over HTTP)", async () => {
    const post = (accept: string, query: string, key?: string) =>
      fetch(`${t.skiff.url}/graphql`, {
        method: "POST",
        headers: { "content-type": "application/json", accept, ...(key && { authorization: `Bearer ${key}` }) },
        body: JSON.stringify({ query }),
      });
    for (const accept of ["application/graphql-response+json", "application/json"]) {
      const res = await post(accept, '{ a: __typename project(id: "prj_x") { id } }', apiKey);
      expect(res.status, accept).toBe(200);
      const body = (await res.json()) as { data: unknown; errors: Array<{ extensions: { code: string } }> };
      expect(body.data).toEqual({ a: "Query", project: null });
      expect(body.errors.map((e) => e.extensions.code)).toEqual(["NOT_FOUND"]);
      // The whole operation refused: no data, the refusal's status.
      const refused = await post(accept, "{ projects { totalCount } }");
      expect(refused.status, accept).toBe(401);
      expect(((await refused.json()) as { data?: unknown }).data ?? null).toBeNull();
    }
  });

  it("an anonymous operation selecting any field but the public ones is refused whole: 401, no data", async () => {
    const post = (query: string) =>
      fetch(`${t.skiff.url}/graphql`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/graphql-response+json" },
        body: JSON.stringify({ query }),
      });
    for (const query of [
      '{ project(id: "prj_x") { id } }',
      '{ a: __typename project(id: "prj_x") { id } }',
      '{ organization(id: "org_x") { id } }',
      '{ ...F } fragment F on Query { __typename invitationLink(token: "x") { email } viewer { user { id } } }',
      "{ ... on Query { organizations { id } } }",
    ]) {
      const res = await post(query);
      const body = (await res.json()) as { data?: unknown; errors: Array<{ extensions: { code: string } }> };
      expect(res.status, query).toBe(401);
      expect(body.data ?? null, query).toBeNull();
      expect(
        body.errors.map((e) => e.extensions.code),
        query,
      ).toEqual(["UNAUTHENTICATED"]);
    }
    // The public fields and introspection stay open.
    for (const query of [
      '{ __typename invitationLink(token: "x") { email } }',
      "{ _service { sdl } }",
      "{ __schema { queryType { name } } }",
    ]) {
      const res = await post(query);
      expect(res.status, query).toBe(200);
      expect(((await res.json()) as { data: unknown }).data, query).not.toBeNull();
    }
  });
});

describe("methods /graphql does not serve", () => {
  it("answer 405 with Allow: GET, POST in GraphQL's error shape", async () => {
    for (const method of ["PUT", "PATCH", "DELETE", "OPTIONS"]) {
      const res = await send("/graphql", { method, headers: { "content-type": "application/json" }, body: "{}" });
      expect(res.status, method).toBe(405);
      expect(codeOf(res), method).toBe("METHOD_NOT_ALLOWED");
    }
    const preflight = await fetch(`${t.skiff.url}/graphql`, {
      method: "OPTIONS",
      headers: { origin: "https://elsewhere.example", "access-control-request-method": "POST" },
    });
    expect(preflight.status).toBe(405);
    expect(preflight.headers.get("allow")).toBe("GET, POST");
    expect(preflight.headers.get("access-control-allow-origin")).toBeNull();
    // A mutation or subscription sent by GET: the same 405 and code.
    for (const query of ["mutation { __typename }", "subscription { heartbeat }"]) {
      const get = await send(`/graphql?query=${encodeURIComponent(query)}`, {
        method: "GET",
        headers: { "apollo-require-preflight": "1" },
      });
      expect(get.status, query).toBe(405);
      expect(codeOf(get), query).toBe("METHOD_NOT_ALLOWED");
    }
  });
});

describe("/api/auth/* beside the other /api paths", () => {
  it("answers a path or method better-auth does not serve with the common 404 body", async () => {
    for (const [method, path] of [
      ["GET", "/api/auth/nope"],
      ["DELETE", "/api/auth/sign-in/email"],
    ] as const) {
      const answer = await send(path, { method, headers: {} });
      expect(answer.status, `${method} ${path}`).toBe(404);
      expect(answer.json, `${method} ${path}`).toEqual({
        error: `No route answers ${method} on this path`,
        code: "NOT_FOUND",
      });
    }
  });

  it("refuses a JSON body holding __proto__ or constructor.prototype with 400 BAD_REQUEST, as every other route", async () => {
    for (const body of [
      '{"email":"a@example.com","password":"long-enough-1","__proto__":{"x":1}}',
      '{"email":"a@example.com","password":"long-enough-1","constructor":{"prototype":{"x":1}}}',
    ]) {
      const answer = await send("/api/auth/sign-in/email", { headers: { "content-type": "application/json" }, body });
      expect(answer.status, answer.text).toBe(400);
      expect(codeOf(answer)).toBe("BAD_REQUEST");
      expect(messageOf(answer)).toMatch(/forbidden key/);
    }
  });
});

describe("cookie-authenticated requests from an untrusted Origin", () => {
  it("are refused with 403 INVALID_ORIGIN on GraphQL and REST unless safe, trusted, without Origin or header-authenticated", async () => {
    const cookie = await sessionFor(t.db.knex, t.skiff.url, owner);
    const graphql = JSON.stringify({ query: "{ viewer { user { id } } }" });
    const preview = JSON.stringify({
      organizationId,
      name: "site",
      source: { type: "docker", dockerImage: "nginx:1" },
    });
    const call = (path: string, body: string, headers: Record<string, string>) =>
      fetch(`${t.skiff.url}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body,
      }).then(async (res) => ({ status: res.status, json: (await res.json()) as Answer["json"] }));
    for (const [path, body] of [
      ["/graphql", graphql],
      ["/api/site-import/preview", preview],
    ] as const) {
      for (const origin of ["https://evil.example", "null", `${TRUSTED}.evil.example`]) {
        const refused = await call(path, body, { cookie, origin });
        expect(refused.status, `${path} ${origin}`).toBe(403);
        expect(refused.json.errors?.[0]?.extensions?.code ?? refused.json.code, path).toBe("INVALID_ORIGIN");
      }
      expect((await call(path, body, { cookie, origin: TRUSTED })).status, path).toBe(200);
      expect((await call(path, body, { cookie })).status, path).toBe(200);
      const keyed = await call(path, body, {
        cookie,
        origin: "https://evil.example",
        authorization: `Bearer ${apiKey}`,
      });
      expect(keyed.status, path).toBe(200);
    }
    const read = await fetch(`${t.skiff.url}/graphql?query=${encodeURIComponent("{ viewer { user { id } } }")}`, {
      headers: { cookie, origin: "https://evil.example", "apollo-require-preflight": "1" },
    });
    expect(read.status).toBe(200);
  });
});
