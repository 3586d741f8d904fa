/**
 * With real WebSocket clients: frames over 1 MB close the socket (1009) even before
 * authentication; a socket without `connection_init` is closed; pending sockets per address are capped (429);
 * errors are masked like on HTTP (no SQL text); cookie-authenticated upgrades from foreign origins get 4403; one
 * socket runs at most MAX_OPERATIONS_PER_SOCKET operations (one more: an `error` message for its id, the socket
 * stays open). Two credentials in `connection_init` are refused (4403); variables that do not coerce are an `error`
 * message; an upgrade on another path than /graphql answers HTTP 404.
 */
import { connect } from "node:net";
import { createClient } from "graphql-ws";
import { beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { MAX_OPERATIONS_PER_SOCKET } from "../../src/server/graphql-ws-protocol.ts";
import { MAX_NESTING, MAX_TOKENS } from "../../src/server/query-limits.ts";
import { CONNECTION_INIT_TIMEOUT_MS, MAX_PENDING_PER_ADDRESS } from "../../src/server/subscriptions.ts";
import { createOrg, setPassword } from "../helpers/seed.ts";
import { gql, startTestServer, useTestServer } from "../helpers/server.ts";
import { signIn, TEST_PASSWORD } from "../helpers/session.ts";
import { wsOperation } from "../helpers/ws-operation.ts";

const t = useTestServer();
let org: Awaited<ReturnType<typeof createOrg>>;
const wsUrl = () => `${t.skiff.url.replace("http", "ws")}/graphql`;

beforeAll(async () => {
  org = await createOrg(t.db.knex);
});

/** Opens a raw graphql-transport-ws socket and resolves once open. */
function open(headers: Record<string, string> = {}): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(wsUrl(), "graphql-transport-ws", { headers });
    ws.once("open", () => resolve(ws));
    ws.once("error", reject);
  });
}

/** Resolves with the close code of `ws`. */
function closed(ws: WebSocket): Promise<number> {
  return new Promise((resolve) => ws.once("close", (code) => resolve(code)));
}

/** Opens a socket authenticated with `apiKey` (`connection_ack` received). */
async function authenticated(apiKey: string): Promise<WebSocket> {
  const ws = await open();
  await new Promise<void>((resolve, reject) => {
    ws.once("message", (data) =>
      JSON.parse(String(data)).type === "connection_ack" ? resolve() : reject(new Error(String(data))),
    );
    ws.send(JSON.stringify({ type: "connection_init", payload: { authorization: `Bearer ${apiKey}` } }));
  });
  return ws;
}

describe("graphql-ws limits", () => {
  it("closes the socket on a frame over 1 MB, before authentication", async () => {
    const ws = await open();
    const code = closed(ws);
    ws.send(JSON.stringify({ type: "connection_init", payload: { pad: "x".repeat(2 * 1024 * 1024) } }));
    expect(await code).toBe(1009);
  });

  it("closes a socket that never sends connection_init (4408)", async () => {
    const ws = await open();
    const started = performance.now();
    expect(await closed(ws)).toBe(4408);
    expect(performance.now() - started).toBeGreaterThanOrEqual(CONNECTION_INIT_TIMEOUT_MS - 200);
  });

  it("refuses more than the pending-socket cap from one address with 429", async () => {
    const sockets = await Promise.all(Array.from({ length: MAX_PENDING_PER_ADDRESS }, () => open()));
    const refused = await new Promise<number>((resolve) => {
      const ws = new WebSocket(wsUrl(), "graphql-transport-ws");
      ws.once("unexpected-response", (_req, res) => resolve(res.statusCode ?? 0));
      ws.once("open", () => resolve(101));
    });
    expect(refused).toBe(429);
    for (const ws of sockets) ws.close();
    await Promise.all(sockets.map((ws) => (ws.readyState === ws.CLOSED ? 0 : closed(ws))));
    const again = await open();
    again.close();
  });

  it("refuses one operation past the per-socket cap with an error message for its id, and keeps serving", async () => {
    const ws = await authenticated(org.owner.apiKey);
    const byId = new Map<string, Array<{ type: string; payload?: unknown }>>();
    ws.on("message", (data) => {
      const message = JSON.parse(String(data)) as { id?: string; type: string; payload?: unknown };
      const key = message.id ?? message.type;
      byId.set(key, [...(byId.get(key) ?? []), message]);
    });
    /** Resolves once `done()` holds, or rejects after 10 s. */
    const until = async (done: () => boolean, what: string) => {
      const deadline = Date.now() + 10_000;
      while (!done()) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    const subscribe = (id: string) =>
      ws.send(JSON.stringify({ id, type: "subscribe", payload: { query: "subscription { heartbeat }" } }));
    // The cap's worth of open subscriptions, each answered with its first heartbeat, then one more.
    for (let i = 0; i <= MAX_OPERATIONS_PER_SOCKET; i++) subscribe(`s${i}`);
    const last = `s${MAX_OPERATIONS_PER_SOCKET}`;
    await until(() => byId.has(last), "an answer to the operation past the cap");
    expect(byId.get(last)?.map((m) => m.type)).toEqual(["error"]);
    const errors = byId.get(last)?.[0]?.payload as Array<{ message: string; extensions?: { code?: string } }>;
    expect(errors.map((e) => e.extensions?.code)).toEqual(["TOO_MANY_OPERATIONS"]);
    expect(errors[0]?.message).toContain(String(MAX_OPERATIONS_PER_SOCKET));
    await until(
      () => Array.from({ length: MAX_OPERATIONS_PER_SOCKET }, (_, i) => byId.has(`s${i}`)).every(Boolean),
      "the first heartbeat of every subscription within the cap",
    );
    for (let i = 0; i < MAX_OPERATIONS_PER_SOCKET; i++) expect(byId.get(`s${i}`)?.[0]?.type).toBe("next");
    // The socket stays open; completing one subscription frees its place.
    ws.send(JSON.stringify({ id: "s0", type: "complete" }));
    subscribe("again");
    await until(() => byId.has("again"), "the subscription sent after one completed");
    expect(byId.get("again")?.[0]?.type).toBe("next");
    ws.send(JSON.stringify({ type: "ping" }));
    await until(() => byId.has("pong"), "a pong");
    expect(ws.readyState).toBe(WebSocket.OPEN);
    ws.close();
  });

  it("masks database errors like HTTP: a NUL byte in an id gives NOT_FOUND, no SQL text", async () => {
    const client = createClient({
      url: wsUrl(),
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      connectionParams: { authorization: `Bearer ${org.owner.apiKey}` },
    });
    const outcome = await new Promise<unknown>((resolve) => {
      client.subscribe(
        { query: 'subscription { siteImportUpdated(id: "\\u0000") { importId } }' },
        { next: resolve, error: resolve, complete: () => resolve(null) },
      );
    });
    const text = JSON.stringify(outcome);
    expect(text).not.toMatch(/select|site_imports|invalid byte sequence/i);
    expect(text).toMatch(/BAD_USER_INPUT|NOT_FOUND/);
    await client.dispose();
  });
});

/** The `extensions.code` of each error of an operation's `error` message (or of its `next` payload's errors). */
function codes(outcome: Awaited<ReturnType<typeof wsOperation>>): string[] {
  return outcome.messages.flatMap((m) => {
    const errors = (m.type === "error" ? m.payload : (m.payload as { errors?: unknown })?.errors) as
      | Array<{ extensions?: { code?: string } }>
      | undefined;
    return (errors ?? []).map((e) => e.extensions?.code ?? "(none)");
  });
}

describe("the limits HTTP applies before and after parsing, on WebSocket", () => {
  const nested = (levels: number, open = "[", close = "]") =>
    `subscription { siteImportUpdated(id: ${open.repeat(levels)}"x"${close.repeat(levels)}) { importId } }`;

  it("answers a list argument nested 100,000 deep with an error message for the operation (no 4500), as HTTP answers 400", async () => {
    const document = nested(100_000);
    const ws = await wsOperation(t.skiff.url, org.owner.apiKey, document);
    expect(ws.closeCode).toBeUndefined();
    expect(ws.messages.map((m) => m.type)).toEqual(["error"]);
    expect(codes(ws)).toEqual(["GRAPHQL_PARSE_FAILED"]);
    expect(JSON.stringify(ws.messages)).toContain(`deeper than ${MAX_NESTING} levels`);
    expect(ws.stillServes).toBe(true);
    const http = await gql(t.skiff.url, document.replace("subscription", "query"), {}, { apiKey: org.owner.apiKey });
    expect(http.status).toBe(400);
    expect(http.errors?.[0]?.extensions?.code).toBe("GRAPHQL_PARSE_FAILED");
    expect(http.errors?.[0]?.message).toContain(`deeper than ${MAX_NESTING} levels`);
  });

  it("refuses every nesting kind past the limit before parsing, and takes the limit itself", async () => {
    const deep = MAX_NESTING + 1;
    const objects = `query { siteImport(id: ${"{a:".repeat(deep)}1${"}".repeat(deep)}) { id } }`;
    const selections = `query { ${"a {".repeat(deep)} b ${"}".repeat(deep)} }`;
    for (const document of [nested(deep), objects, selections]) {
      const ws = await wsOperation(t.skiff.url, org.owner.apiKey, document);
      expect(codes(ws), document.slice(0, 40)).toEqual(["GRAPHQL_PARSE_FAILED"]);
      expect(ws.stillServes).toBe(true);
      const http = await gql(t.skiff.url, document, {}, { apiKey: org.owner.apiKey });
      expect(http.status).toBe(400);
      expect(http.errors?.[0]?.message).toContain("deeper than");
    }
    // At the limit (the subscription's braces included) the document parses: validation has the last word.
    const within = await wsOperation(t.skiff.url, org.owner.apiKey, nested(MAX_NESTING - 2));
    expect(codes(within)).toEqual(["GRAPHQL_VALIDATION_FAILED"]);
  });

  it("refuses a document over the token limit the same way on both", async () => {
    const document = `query { ${"__typename ".repeat(MAX_TOKENS)} }`;
    const ws = await wsOperation(t.skiff.url, org.owner.apiKey, document);
    expect(codes(ws)).toEqual(["GRAPHQL_PARSE_FAILED"]);
    const http = await gql(t.skiff.url, document, {}, { apiKey: org.owner.apiKey });
    expect(http.status).toBe(400);
    const wsErrors = (ws.messages[0]?.payload ?? []) as Array<{ message: string }>;
    expect(http.errors?.[0]?.message).toBe(wsErrors[0]?.message);
  });

  it("hides field suggestions on both", async () => {
    const document = 'subscription { siteImportUpdatd(id: "x") { importId } }';
    const ws = await wsOperation(t.skiff.url, org.owner.apiKey, document);
    expect(codes(ws)).toEqual(["GRAPHQL_VALIDATION_FAILED"]);
    expect(JSON.stringify(ws.messages)).not.toContain("Did you mean");
    expect(JSON.stringify(ws.messages)).toContain("[Suggestion hidden]");
    const http = await gql(t.skiff.url, document.replace("subscription", "query"), {}, { apiKey: org.owner.apiKey });
    expect(JSON.stringify(http.errors)).not.toContain("Did you mean");
  });

  it("refuses introspection when it is off, and caps a query's answer size, on both", async () => {
    const limited = await startTestServer(t.db.url, {
      SKIFF_INTROSPECTION: "false",
      SKIFF_MAX_RESPONSE_BYTES: "1024",
      SKIFF_WORKER: "false",
    });
    try {
      const introspection = "{ __schema { queryType { name } } }";
      const ws = await wsOperation(limited.url, org.owner.apiKey, introspection);
      expect(codes(ws).length).toBeGreaterThan(0);
      expect(new Set(codes(ws))).toEqual(new Set(["GRAPHQL_VALIDATION_FAILED"]));
      expect(JSON.stringify(ws.messages)).toContain("introspection is turned off");
      expect((await gql(limited.url, introspection, {}, { apiKey: org.owner.apiKey })).status).toBe(400);
      // The subgraph SDL is far over 1 KB.
      const large = "{ _service { sdl } }";
      const big = await wsOperation(limited.url, org.owner.apiKey, large);
      expect(codes(big)).toEqual(["RESPONSE_TOO_LARGE"]);
      expect(JSON.stringify(big.messages)).not.toContain("type Query");
      expect((await gql(limited.url, large, {}, { apiKey: org.owner.apiKey })).status).toBe(413);
    } finally {
      await limited.stop();
    }
  });
});

describe("credentials no header can carry", () => {
  it("refuses a connection_init whose authorization holds a NUL byte or a newline with 4403, as any invalid key", async () => {
    const init = async (payload: Record<string, unknown>) => {
      const ws = await open();
      return new Promise<string | number>((resolve) => {
        ws.once("message", (data) => resolve(JSON.parse(String(data)).type));
        ws.once("close", (code) => resolve(code));
        ws.send(JSON.stringify({ type: "connection_init", payload }));
      });
    };
    const key = org.owner.apiKey;
    expect(await init({ authorization: `Bearer ${key}\u0000` })).toBe(4403);
    expect(await init({ authorization: `Bearer ${key}\nx-api-key: ${key}` })).toBe(4403);
    expect(await init({ "x-api-key": "a\u0000b", "bad name": "x" })).toBe(4403);
    // The same socket path still takes a valid key beside a value it leaves out.
    const ok = await init({ authorization: `Bearer ${key}`, "x-extra": "a\u0000b" });
    expect(ok).toBe("connection_ack");
  });
});

describe("two credentials in one connection_init", () => {
  it("are refused with 4403 when one header name in two cases holds two different credentials; the same one is one", async () => {
    const other = await createOrg(t.db.knex);
    const init = async (payload: Record<string, unknown>) => {
      const ws = await open();
      return new Promise<string | number>((resolve) => {
        ws.once("message", (data) => {
          resolve(JSON.parse(String(data)).type);
          ws.close();
        });
        ws.once("close", (code) => resolve(code));
        ws.send(JSON.stringify({ type: "connection_init", payload }));
      });
    };
    const [a, b] = [org.owner.apiKey, other.owner.apiKey];
    expect(await init({ Authorization: `Bearer ${b}`, authorization: `Bearer ${a}` })).toBe(4403);
    expect(await init({ "X-API-Key": b, "x-api-key": a })).toBe(4403);
    expect(await init({ authorization: `Bearer ${a}`, "x-api-key": b })).toBe(4403);
    expect(await init({ Authorization: `Bearer ${a}`, authorization: `Bearer ${a}` })).toBe("connection_ack");
  });
});

describe("variables that do not coerce", () => {
  it("are an error message for the operation with HTTP's code and message, never a next result", async () => {
    const query = "query($id: ID!) { project(id: $id) { id } }";
    for (const variables of [{}, { id: { x: 1 } }, { id: null }]) {
      const ws = await wsOperation(t.skiff.url, org.owner.apiKey, query, variables);
      expect(
        ws.messages.map((m) => m.type),
        JSON.stringify(variables),
      ).toEqual(["error"]);
      expect(ws.stillServes).toBe(true);
      const http = await gql(t.skiff.url, query, variables, { apiKey: org.owner.apiKey });
      expect(http.status).toBe(400);
      const errors = ws.messages[0]?.payload as Array<{ message: string; extensions: { code: string } }>;
      expect(errors.map((e) => [e.message, e.extensions.code])).toEqual(
        http.errors?.map((e) => [e.message, e.extensions?.code]),
      );
      expect(errors[0]?.extensions.code).toBe("BAD_USER_INPUT");
    }
    const subscription = await wsOperation(
      t.skiff.url,
      org.owner.apiKey,
      "subscription($id: ID!) { siteImportUpdated(id: $id) { importId } }",
    );
    expect(subscription.messages.map((m) => m.type)).toEqual(["error"]);
  });
});

describe("WebSocket upgrades on another path", () => {
  it("answer HTTP 404 in the REST shape, with Content-Length and Connection: close", async () => {
    const { port } = new URL(t.skiff.url);
    for (const path of ["/api/ws", "/", "/mcp", "/graphql/"]) {
      const answer = await new Promise<string>((resolve, reject) => {
        const socket = connect(Number(port), "127.0.0.1", () =>
          socket.write(
            `GET ${path} HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
              "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n",
          ),
        );
        let text = "";
        socket.on("data", (chunk) => (text += chunk));
        socket.once("close", () => resolve(text));
        socket.once("error", reject);
      });
      const [head, body] = answer.split("\r\n\r\n");
      expect(head, path).toMatch(/^HTTP\/1\.1 404 Not Found\r\n/);
      expect(head, path).toMatch(/\r\nconnection: close(\r\n|$)/i);
      expect(head, path).toContain(`Content-Length: ${Buffer.byteLength(body ?? "")}`);
      expect(JSON.parse(body ?? ""), path).toEqual({ error: "No route answers GET on this path", code: "NOT_FOUND" });
    }
  });
});

describe("cookie-authenticated upgrades", () => {
  it("accept trusted origins and refuse foreign ones with 4403; header credentials are unaffected", async () => {
    await setPassword(t.db.knex, org.owner.userId, TEST_PASSWORD);
    const cookie = await signIn(t.skiff.url, org.owner.email);
    const init = (ws: WebSocket, payload: Record<string, unknown> = {}) =>
      new Promise<string | number>((resolve) => {
        ws.once("message", (data) => resolve(JSON.parse(String(data)).type));
        ws.once("close", (code) => resolve(code));
        ws.send(JSON.stringify({ type: "connection_init", payload }));
      });
    const evil = await open({ cookie, origin: "http://evil.example" });
    expect(await init(evil)).toBe(4403);
    const base = t.skiff.services.config.SKIFF_BASE_URL ?? "";
    const own = await open({ cookie, origin: new URL(base).origin });
    expect(await init(own)).toBe("connection_ack");
    own.close();
    const header = await open({ origin: "http://evil.example" });
    expect(await init(header, { authorization: `Bearer ${org.owner.apiKey}` })).toBe("connection_ack");
    header.close();
  });
});
