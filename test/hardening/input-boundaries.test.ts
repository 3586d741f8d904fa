/**
 * Client mistakes at the edges of the input, answered with the same client error on HTTP and WebSocket, never a
 * 500, a 4500 close or an error-level log line (every line of the server is captured and checked):
 * - JSON nested deeper than MAX_JSON_DEPTH (a POST body, a GET's `variables`, a REST body, a graphql-ws payload) is
 *   refused with BAD_REQUEST (an `error` message on the socket, which stays open); at the limit it is served;
 * - `_entities` representations it cannot resolve (unknown or non-entity `__typename`, none, no key) answer
 *   BAD_USER_INPUT naming the representation;
 * - the socket answers HTTP's codes for the operation limits (GRAPHQL_VALIDATION_FAILED), an operation name that
 *   matches no operation (OPERATION_RESOLUTION_FAILURE), and sends no `extensions.http`;
 * - a page size past its field's range answers that field's BAD_USER_INPUT, however large (not the cost limit), and
 *   so does one under a mutation's answer (not INTERNAL_SERVER_ERROR);
 * - an upgrade without the graphql-transport-ws subprotocol gets 4406 even when `connection_init` follows at once.
 */
import { beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { MAX_JSON_DEPTH } from "../../src/shared/json-text.ts";
import { createOrg } from "../helpers/seed.ts";
import { captureLogs, gql, useTestServer } from "../helpers/server.ts";

const logs = captureLogs();
const t = useTestServer({ SKIFF_WORKER: "false" }, logs.logger);
let org: Awaited<ReturnType<typeof createOrg>>;

beforeAll(async () => {
  org = await createOrg(t.db.knex);
});

/** Log lines at error level or above written since `from`. */
const errorsSince = (from: number) => logs.lines.slice(from).filter((l) => Number(l.level) >= 50);

/** JSON text of objects nested `levels` deep (`{"a":{"a":…1…}}`); 0 levels is `1`. */
const nestedObjects = (levels: number) => `${'{"a":'.repeat(levels)}1${"}".repeat(levels)}`;
/** The parsed value of {@link nestedObjects}. */
const nestedValue = (levels: number): unknown => JSON.parse(nestedObjects(levels));

type Errors = Array<{ message: string; extensions?: Record<string, unknown> }>;

/** POSTs `body` (a JSON text) to `path` as the org owner. */
async function postText(path: string, body: string) {
  const res = await fetch(`${t.skiff.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${org.owner.apiKey}` },
    body,
  });
  return { status: res.status, body: (await res.json()) as { errors?: Errors; code?: string; error?: string } };
}

/** A message the server sent on a raw socket. */
type Message = { type: string; id?: string; payload?: unknown };

/** A raw graphql-transport-ws socket authenticated as the org owner, with every message it received. */
async function authenticatedSocket() {
  const ws = new WebSocket(`${t.skiff.url.replace("http", "ws")}/graphql`, "graphql-transport-ws");
  const messages: Message[] = [];
  const waiters: Array<() => void> = [];
  let closeCode: number | undefined;
  ws.on("message", (data) => {
    messages.push(JSON.parse(String(data)) as Message);
    for (const wake of waiters.splice(0)) wake();
  });
  ws.on("close", (code) => {
    closeCode = code;
    for (const wake of waiters.splice(0)) wake();
  });
  /** Resolves with the first message matching `match` (or undefined once the socket closed). */
  const next = async (match: (m: Message) => boolean): Promise<Message | undefined> => {
    for (;;) {
      const found = messages.find(match);
      if (found || closeCode !== undefined) return found;
      await new Promise<void>((resolve) => waiters.push(resolve));
    }
  };
  await new Promise((resolve, reject) => {
    ws.once("open", resolve);
    ws.once("error", reject);
  });
  ws.send(JSON.stringify({ type: "connection_init", payload: { authorization: `Bearer ${org.owner.apiKey}` } }));
  expect((await next((m) => m.type === "connection_ack"))?.type).toBe("connection_ack");
  let ids = 0;
  return {
    ws,
    closeCode: () => closeCode,
    /** Sends a `subscribe` with `payload` (a JSON text or a value); resolves with its `error` or first `next`. */
    async operation(payload: unknown): Promise<Message | undefined> {
      const id = String(++ids);
      const text = typeof payload === "string" ? payload : JSON.stringify(payload);
      ws.send(`{"id":"${id}","type":"subscribe","payload":${text}}`);
      return next((m) => m.id === id && (m.type === "error" || m.type === "next"));
    },
    /** Whether the socket still answers a ping. */
    async serves(): Promise<boolean> {
      const before = messages.length;
      ws.send(JSON.stringify({ type: "ping" }));
      return (await next((m) => m.type === "pong" && messages.indexOf(m) >= before)) !== undefined;
    },
    /** Resolves with the socket's close code. */
    async closed(): Promise<number | undefined> {
      await next(() => false);
      return closeCode;
    },
  };
}

/** The errors of a socket's `error` message or of its `next` payload. */
function errorsOf(message: Message | undefined): Errors {
  if (message?.type === "error") return message.payload as Errors;
  return ((message?.payload as { errors?: Errors } | undefined)?.errors ?? []) as Errors;
}

describe("JSON nested deeper than MAX_JSON_DEPTH", () => {
  const refusal = `deeper than ${MAX_JSON_DEPTH} levels`;

  it("refuses a POST body whose variables nest 6,000 deep with 400 BAD_REQUEST, and serves one at the limit", async () => {
    const from = logs.lines.length;
    const deep = await postText("/graphql", `{"query":"{ __typename }","variables":{"d":${nestedObjects(6000)}}}`);
    expect(deep.status).toBe(400);
    expect(deep.body.errors?.[0]?.extensions?.code).toBe("BAD_REQUEST");
    expect(deep.body.errors?.[0]?.message).toContain(refusal);
    // The body is level 1, `variables` level 2, `d` level 3.
    const atLimit = `{"query":"{ __typename }","variables":{"d":${nestedObjects(MAX_JSON_DEPTH - 2)}}}`;
    expect((await postText("/graphql", atLimit)).body).toEqual({ data: { __typename: "Query" } });
    const overLimit = `{"query":"{ __typename }","variables":{"d":${nestedObjects(MAX_JSON_DEPTH - 1)}}}`;
    expect((await postText("/graphql", overLimit)).status).toBe(400);
    const extensions = await postText("/graphql", `{"query":"{ __typename }","extensions":${nestedObjects(6000)}}`);
    expect(extensions.status).toBe(400);
    expect(extensions.body.errors?.[0]?.extensions?.code).toBe("BAD_REQUEST");
    expect(errorsSince(from)).toEqual([]);
  });

  it("refuses a GET's variables nested past the limit with 400 BAD_REQUEST, measured as in a POST body", async () => {
    const from = logs.lines.length;
    const get = async (variables: string) => {
      const search = new URLSearchParams({ query: "{ __typename }", variables });
      const res = await fetch(`${t.skiff.url}/graphql?${search}`, {
        headers: { authorization: `Bearer ${org.owner.apiKey}`, "apollo-require-preflight": "1" },
      });
      return { status: res.status, body: (await res.json()) as { errors?: Errors; data?: unknown } };
    };
    const deep = await get(`{"d":${"[".repeat(2000)}1${"]".repeat(2000)}}`);
    expect(deep.status).toBe(400);
    expect(deep.body.errors?.[0]?.extensions?.code).toBe("BAD_REQUEST");
    expect(deep.body.errors?.[0]?.message).toContain(refusal);
    expect(deep.body.errors?.[0]?.extensions).not.toHaveProperty("http");
    expect((await get(`{"d":${nestedObjects(MAX_JSON_DEPTH - 2)}}`)).body).toEqual({ data: { __typename: "Query" } });
    expect((await get(`{"d":${nestedObjects(MAX_JSON_DEPTH - 1)}}`)).status).toBe(400);
    expect(errorsSince(from)).toEqual([]);
  });

  it("refuses a REST body nested past the limit with 400 BAD_REQUEST in the REST shape", async () => {
    const from = logs.lines.length;
    const res = await postText("/api/site-import/preview", nestedObjects(6000));
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("BAD_REQUEST");
    expect(res.body.error).toContain(refusal);
    expect(errorsSince(from)).toEqual([]);
  });

  it("answers a subscribe whose variables nest 20,000 deep with an error message, the socket left open", async () => {
    const from = logs.lines.length;
    const socket = await authenticatedSocket();
    const deep = await socket.operation(
      `{"query":"subscription { heartbeat }","variables":{"d":${nestedObjects(20_000)}}}`,
    );
    expect(deep?.type).toBe("error");
    expect(errorsOf(deep).map((e) => e.extensions?.code)).toEqual(["BAD_REQUEST"]);
    expect(errorsOf(deep)[0]?.message).toContain(refusal);
    expect(errorsOf(deep)[0]?.extensions).not.toHaveProperty("http");
    const extensions = await socket.operation(`{"query":"{ __typename }","extensions":${nestedObjects(20_000)}}`);
    expect(errorsOf(extensions).map((e) => e.extensions?.code)).toEqual(["BAD_REQUEST"]);
    expect(await socket.serves()).toBe(true);
    // At the limit (the payload is level 1, as a POST body): served.
    const atLimit = await socket.operation({
      query: "{ __typename }",
      variables: { d: nestedValue(MAX_JSON_DEPTH - 2) },
    });
    expect(atLimit).toEqual({ id: expect.any(String), type: "next", payload: { data: { __typename: "Query" } } });
    const overLimit = await socket.operation({
      query: "{ __typename }",
      variables: { d: nestedValue(MAX_JSON_DEPTH - 1) },
    });
    expect(errorsOf(overLimit).map((e) => e.extensions?.code)).toEqual(["BAD_REQUEST"]);
    expect(socket.closeCode()).toBeUndefined();
    socket.ws.close();
    expect(errorsSince(from)).toEqual([]);
  });

  it("answers a subscribe whose payload holds __proto__ BAD_REQUEST as HTTP does, the socket left open", async () => {
    const from = logs.lines.length;
    const socket = await authenticatedSocket();
    for (const text of [
      '{"query":"{ __typename }","variables":{"__proto__":{"x":1}}}',
      '{"query":"{ __typename }","variables":{"a":{"constructor":{"prototype":{"x":1}}}}}',
      '{"query":"{ __typename }","extensions":{"__proto__":1}}',
    ]) {
      const refused = await socket.operation(text);
      expect(refused?.type, text).toBe("error");
      expect(errorsOf(refused).map((e) => e.extensions?.code)).toEqual(["BAD_REQUEST"]);
    }
    const http = await fetch(`${t.skiff.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${org.owner.apiKey}` },
      body: '{"query":"{ __typename }","variables":{"__proto__":{"x":1}}}',
    });
    expect(http.status).toBe(400);
    expect(await socket.serves()).toBe(true);
    socket.ws.send('{"type":"ping","payload":{"__proto__":1}}');
    expect(await socket.closed()).toBe(4400);
    expect(errorsSince(from)).toEqual([]);
  });

  it("closes a socket whose ping payload nests past the limit with 4400, not 4500", async () => {
    const from = logs.lines.length;
    const socket = await authenticatedSocket();
    socket.ws.send(`{"type":"ping","payload":${nestedObjects(20_000)}}`);
    expect(await socket.closed()).toBe(4400);
    expect(errorsSince(from)).toEqual([]);
  });
});

describe("_entities representations", () => {
  const query = (representations: string) => `{ _entities(representations: ${representations}) { __typename } }`;
  const cases: Array<[string, string]> = [
    ['[{__typename: "Nope", id: "x"}]', "representations[0].__typename"],
    ['[{id: "x"}]', "representations[0].__typename"],
    ['[{__typename: 5, id: "x"}]', "representations[0].__typename"],
    ['[{__typename: "PageInfo", id: "x"}]', "representations[0].__typename"],
    ['[{__typename: "Query", id: "x"}]', "representations[0].__typename"],
    ['[{__typename: "Project"}]', "representations[0].id"],
    ['[{__typename: "Project", id: {a: 1}}]', "representations[0].id"],
    ['[{__typename: "Project", id: "prj_x"}, "junk"]', "representations[1]"],
  ];

  it("answers BAD_USER_INPUT naming the representation on HTTP and WebSocket, with no error log", async () => {
    const from = logs.lines.length;
    const socket = await authenticatedSocket();
    for (const [representations, field] of cases) {
      const http = await gql(t.skiff.url, query(representations), {}, { apiKey: org.owner.apiKey });
      expect(
        http.errors?.map((e) => e.extensions?.code),
        representations,
      ).toEqual(["BAD_USER_INPUT"]);
      expect(http.errors?.[0]?.message, representations).toContain(field);
      expect(http.errors?.[0]?.extensions?.fieldErrors, representations).toHaveProperty([field]);
      const ws = errorsOf(await socket.operation({ query: query(representations) }));
      expect(
        ws.map((e) => e.extensions?.code),
        representations,
      ).toEqual(["BAD_USER_INPUT"]);
      expect(ws[0]?.message).toBe(http.errors?.[0]?.message);
    }
    // The same representations as variables.
    const variables = await gql(
      t.skiff.url,
      "query($r: [_Any!]!) { _entities(representations: $r) { __typename } }",
      { r: [{ __typename: "Organization" }] },
      { apiKey: org.owner.apiKey },
    );
    expect(variables.errors?.map((e) => e.extensions?.code)).toEqual(["BAD_USER_INPUT"]);
    socket.ws.close();
    expect(errorsSince(from)).toEqual([]);
  });

  it("resolves a representation whose id holds NUL or a lone surrogate to null, as an unknown id", async () => {
    const from = logs.lines.length;
    const variables = await gql<{ _entities: Array<{ id: string } | null> }>(
      t.skiff.url,
      "query($r: [_Any!]!) { _entities(representations: $r) { ... on Organization { id } } }",
      {
        r: [
          { __typename: "Project", id: "prj_\u0000" },
          { __typename: "Organization", id: org.organizationId },
          { __typename: "Project", id: "prj_\ud800" },
          { __typename: "Project", id: "x".repeat(100_000) },
        ],
      },
      { apiKey: org.owner.apiKey },
    );
    expect(variables.status).toBe(200);
    expect(variables.errors).toBeUndefined();
    expect(variables.data?._entities).toEqual([null, { id: org.organizationId }, null, null]);
    // The same inline.
    const literal = await gql(
      t.skiff.url,
      `{ _entities(representations: [{__typename: "Project", id: "prj_\\u0000"}]) { __typename } }`,
      {},
      { apiKey: org.owner.apiKey },
    );
    expect(literal.errors).toBeUndefined();
    expect(literal.data).toEqual({ _entities: [null] });
    expect(errorsSince(from)).toEqual([]);
  });

  it("names a refused string of a list literal by its index, as in variables", async () => {
    const res = await gql(
      t.skiff.url,
      `mutation { createWebhook(organizationId: "${org.organizationId}", input: { url: "https://127.0.0.1/h", events: ["ping", "a\\u0000"] }) { secret } }`,
      {},
      { apiKey: org.owner.apiKey },
    );
    expect(res.errors?.[0]?.extensions).toMatchObject({ code: "BAD_USER_INPUT", field: "input.events[1]" });
  });

  it("still resolves well-formed representations", async () => {
    const res = await gql<{ _entities: Array<{ id: string } | null> }>(
      t.skiff.url,
      "query($r: [_Any!]!) { _entities(representations: $r) { ... on Organization { id } } }",
      {
        r: [
          { __typename: "Organization", id: org.organizationId },
          { __typename: "Project", id: "prj_missing" },
        ],
      },
      { apiKey: org.owner.apiKey },
    );
    expect(res.errors).toBeUndefined();
    expect(res.data?._entities).toEqual([{ id: org.organizationId }, null]);
  });
});

describe("the socket's codes are HTTP's", () => {
  /** The codes (and the first message) HTTP and the socket answer for `payload`. */
  async function both(payload: { query: string; variables?: Record<string, unknown>; operationName?: string }) {
    const res = await postText("/graphql", JSON.stringify(payload));
    const socket = await authenticatedSocket();
    const ws = errorsOf(await socket.operation(payload));
    socket.ws.close();
    return {
      http: {
        status: res.status,
        codes: res.body.errors?.map((e) => e.extensions?.code),
        message: res.body.errors?.[0]?.message,
      },
      ws: {
        codes: ws.map((e) => e.extensions?.code),
        message: ws[0]?.message,
        extensions: ws.map((e) => e.extensions),
      },
    };
  }

  it("answers GRAPHQL_VALIDATION_FAILED for the depth, alias and directive limits", async () => {
    let deep = "id";
    for (let i = 0; i < 8; i++) deep = `project { environments { applications { ${deep} } } }`;
    const documents = {
      depth: `{ application(id: "app_x") { ${deep} } }`,
      aliases: `{ ${Array.from({ length: 31 }, (_, i) => `a${i}: viewer { __typename }`).join(" ")} }`,
      directives: `{ ${"__typename @skip(if: false) ".repeat(51)} }`,
    };
    for (const [limit, query] of Object.entries(documents)) {
      const { http, ws } = await both({ query });
      expect(http.status, limit).toBe(400);
      expect(http.codes, limit).toEqual(["GRAPHQL_VALIDATION_FAILED"]);
      expect(ws.codes, limit).toEqual(http.codes);
      expect(ws.message, limit).toBe(http.message);
    }
  });

  it("answers BAD_USER_INPUT naming `first` for a page size past its field's range, however large", async () => {
    const documents = [
      "{ projects(first: 100000) { totalCount } }",
      "{ projects(first: 2147483647) { edges { node { environments { applications { deployments(first: 100000) { id } } } } } } }",
      "{ auditEvents(first: 1000000) { totalCount } }",
    ];
    for (const query of documents) {
      const { http, ws } = await both({ query });
      expect(http.codes, query).toEqual(["BAD_USER_INPUT"]);
      expect(ws.codes, query).toEqual(http.codes);
    }
  });

  it("answers a mutation's nested field with a bad argument BAD_USER_INPUT (the audited copy of the context shares its reads)", async () => {
    const from = logs.lines.length;
    for (const [i, nested] of [
      "projects(first: 101) { totalCount }",
      'projects(first: 5, after: "garbage") { totalCount }',
    ].entries()) {
      const query = `mutation($id: ID!) { renameOrganization(id: $id, name: "renamed-${i}") { id ${nested} } }`;
      const { http, ws } = await both({ query, variables: { id: org.organizationId } });
      expect(http.codes, nested).toEqual(["BAD_USER_INPUT"]);
      expect(ws.codes, nested).toEqual(http.codes);
    }
    expect(errorsSince(from)).toEqual([]);
  });

  it("answers OPERATION_RESOLUTION_FAILURE for an operation name that matches no operation, as HTTP", async () => {
    const payloads = [
      { query: "query A { __typename } query B { __typename }", operationName: "C" },
      { query: "query A { __typename } query B { __typename }" },
    ];
    for (const payload of payloads) {
      const { http, ws } = await both(payload);
      expect(http.status).toBe(400);
      expect(http.codes).toEqual(["OPERATION_RESOLUTION_FAILURE"]);
      expect(ws.codes).toEqual(http.codes);
      expect(ws.message).toBe(http.message);
    }
  });

  it("sends no extensions.http on the socket (cost limit, lone surrogate)", async () => {
    const from = logs.lines.length;
    const amplify =
      "{a:organizations{...F} b:organizations{...F} c:organizations{...F}} fragment F on Organization{" +
      "projects(first:100){edges{node{id name organization{projects(first:100){edges{node{id name}}}}}}}}";
    const cost = await both({ query: amplify });
    expect(cost.http.codes).toEqual(["QUERY_COST_EXCEEDED"]);
    expect(cost.ws.codes).toEqual(["QUERY_COST_EXCEEDED"]);
    const surrogate = await both({ query: "query($id: ID!) { project(id: $id) { id } }", variables: { id: "\ud800" } });
    // An id no object can have: NOT_FOUND on both.
    expect(surrogate.http.codes).toEqual(["NOT_FOUND"]);
    expect(surrogate.ws.codes).toEqual(["NOT_FOUND"]);
    for (const extensions of [...cost.ws.extensions, ...surrogate.ws.extensions]) {
      expect(extensions).not.toHaveProperty("http");
    }
    expect(errorsSince(from)).toEqual([]);
  });
});

describe("an upgrade without the graphql-transport-ws subprotocol", () => {
  it("is closed with 4406 even when connection_init follows at once, with no error log", async () => {
    const from = logs.lines.length;
    for (let i = 0; i < 5; i++) {
      const ws = new WebSocket(`${t.skiff.url.replace("http", "ws")}/graphql`);
      const code = new Promise<number>((resolve) => ws.once("close", (c) => resolve(c)));
      ws.once("open", () => {
        ws.send(JSON.stringify({ type: "connection_init", payload: { authorization: `Bearer ${org.owner.apiKey}` } }));
        ws.send(JSON.stringify({ type: "ping" }));
      });
      expect(await code).toBe(4406);
    }
    // The log is written asynchronously: give a failed handler time to log.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(errorsSince(from)).toEqual([]);
  });
});
