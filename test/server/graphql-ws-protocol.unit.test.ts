/**
 * The graphql-transport-ws server (src/server/graphql-ws-protocol.ts) on a real loopback WebSocket server with
 * stub hooks: the keepalive sweep terminates a client that does not answer pings and keeps one that does; the
 * protocol's close codes for a `subscribe` before `connection_ack` (4401), a second `connection_init` (4429), a
 * running operation id sent again (4409) and a server-only message type (4400); a pushed subscription sends its
 * results, then `complete`.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { parse } from "graphql";
import { handleProtocols } from "graphql-ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket, { WebSocketServer } from "ws";
import { GraphqlWsProtocol, ProtocolSocket, type ResultStream } from "../../src/server/graphql-ws-protocol.ts";
import type { StreamConsumer } from "../../src/shared/pubsub.ts";

const KEEP_ALIVE_MS = 150;

/**
 * A result stream of `count` results `{ data: { n } }`, pushed one per `take`, then done (or, `endless`, silent
 * after them); `return` ends it.
 */
function counting(count: number, endless = false): ResultStream {
  let n = 0;
  let ended = false;
  return {
    take(consumer: StreamConsumer<{ data: { n: number } }>) {
      if (endless && !ended && n >= count) return;
      if (ended || n >= count) queueMicrotask(() => consumer.onEnd());
      else {
        n += 1;
        const value = { data: { n } };
        queueMicrotask(() => consumer.onValue(value));
      }
    },
    async return() {
      ended = true;
    },
  } as ResultStream;
}

let server: Server;
let protocol: GraphqlWsProtocol;
let url: string;

beforeAll(async () => {
  const wss = new WebSocketServer({
    noServer: true,
    handleProtocols,
    clientTracking: false,
    WebSocket: ProtocolSocket as unknown as typeof WebSocket,
  });
  protocol = new GraphqlWsProtocol(
    {
      connect: async () => true,
      prepare: (_socket, payload) => ({
        schema: undefined as never,
        document: parse(payload.query),
        operationName: payload.operationName,
      }),
      execute: async () => ({ data: { ok: true } }),
      subscribe: async (args) => (args.operationName === "Endless" ? counting(1, true) : counting(3)),
      format: (errors) => errors.map((e) => ({ message: e.message })),
      closed: () => {},
      failed: () => {},
    },
    3000,
    KEEP_ALIVE_MS,
  );
  server = createServer();
  server.on("upgrade", (request, socket, head) =>
    wss.handleUpgrade(request, socket, head, (ws) => protocol.accept(ws as ProtocolSocket, request)),
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  protocol.dispose();
  await new Promise((resolve) => server.close(resolve));
});

/** An open graphql-transport-ws client socket; `autoPong: false` leaves the server's pings unanswered. */
function open(autoPong = true): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, "graphql-transport-ws", { autoPong });
    ws.once("open", () => resolve(ws));
    ws.once("error", reject);
  });
}

/** Resolves with the close code of `ws`. */
function closed(ws: WebSocket): Promise<number> {
  return new Promise((resolve) => ws.once("close", (code) => resolve(code)));
}

/** The next `count` messages of `ws`, parsed. */
function messages(ws: WebSocket, count: number): Promise<Array<Record<string, unknown>>> {
  const got: Array<Record<string, unknown>> = [];
  return new Promise((resolve) => {
    const on = (data: WebSocket.RawData) => {
      got.push(JSON.parse(String(data)));
      if (got.length === count) {
        ws.off("message", on);
        resolve(got);
      }
    };
    ws.on("message", on);
  });
}

async function acknowledged(): Promise<WebSocket> {
  const ws = await open();
  const ack = messages(ws, 1);
  ws.send(JSON.stringify({ type: "connection_init" }));
  expect((await ack)[0]).toEqual({ type: "connection_ack" });
  return ws;
}

describe("graphql-transport-ws server", () => {
  it("terminates a socket that answers no ping within a sweep interval, keeps one that answers", async () => {
    const silent = await open(false);
    const answering = await open(true);
    let pings = 0;
    answering.on("ping", () => pings++);
    const code = await Promise.race([
      closed(silent),
      new Promise((resolve) => setTimeout(() => resolve("still open"), KEEP_ALIVE_MS * 10)),
    ]);
    expect(code).toBe(1006); // terminated: no closing handshake
    await new Promise((resolve) => setTimeout(resolve, KEEP_ALIVE_MS * 3));
    expect(answering.readyState).toBe(WebSocket.OPEN);
    expect(pings).toBeGreaterThanOrEqual(2);
    answering.close();
  });

  it("closes with 4401, 4429, 4409 and 4400 as graphql-ws does", async () => {
    const early = await open();
    early.send(JSON.stringify({ id: "1", type: "subscribe", payload: { query: "subscription { n }" } }));
    expect(await closed(early)).toBe(4401);

    const twice = await acknowledged();
    twice.send(JSON.stringify({ type: "connection_init" }));
    expect(await closed(twice)).toBe(4429);

    const duplicate = await acknowledged();
    const firstResult = messages(duplicate, 1);
    const endless = { query: "subscription Endless { n }", operationName: "Endless" };
    duplicate.send(JSON.stringify({ id: "a", type: "subscribe", payload: endless }));
    await firstResult;
    duplicate.send(JSON.stringify({ id: "a", type: "subscribe", payload: endless }));
    expect(await closed(duplicate)).toBe(4409);

    const serverOnly = await acknowledged();
    serverOnly.send(JSON.stringify({ type: "connection_ack" }));
    expect(await closed(serverOnly)).toBe(4400);
  });

  it("sends a pushed subscription's results in order, then complete; answers ping with pong", async () => {
    const ws = await acknowledged();
    const got = messages(ws, 4);
    ws.send(JSON.stringify({ id: "s", type: "subscribe", payload: { query: "subscription { n }" } }));
    expect(await got).toEqual([
      { id: "s", type: "next", payload: { data: { n: 1 } } },
      { id: "s", type: "next", payload: { data: { n: 2 } } },
      { id: "s", type: "next", payload: { data: { n: 3 } } },
      { id: "s", type: "complete" },
    ]);
    const pong = messages(ws, 1);
    ws.send(JSON.stringify({ type: "ping", payload: { at: 1 } }));
    expect((await pong)[0]).toEqual({ type: "pong", payload: { at: 1 } });
    ws.close();
  });
});
