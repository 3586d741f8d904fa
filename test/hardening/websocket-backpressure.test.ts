/**
 * With real WebSocket clients that stop reading their TCP socket: a socket whose unwritten answers pass
 * MAX_BUFFERED_BYTES is closed with 1013 (what a reader that catches up then sees, after the answers already
 * buffered), the rest of its operations are not run; a client that goes away with answers pending costs no internal
 * error (no 4500, no error-level line), one debug line per socket at most.
 */
import type { Socket } from "node:net";
import { getIntrospectionQuery } from "graphql";
import { beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { BEHIND_CLOSE_CODE, MAX_BUFFERED_BYTES } from "../../src/server/graphql-ws-protocol.ts";
import { createOrg } from "../helpers/seed.ts";
import { captureLogs, gql, useTestServer } from "../helpers/server.ts";

const logs = captureLogs("debug");
const t = useTestServer({}, logs.logger);
let org: Awaited<ReturnType<typeof createOrg>>;

beforeAll(async () => {
  org = await createOrg(t.db.knex);
});

/** Introspection answers (about 140 KB each) asked for by a client that does not read: far over the bound. */
const QUERIES = 300;
const INTROSPECTION = getIntrospectionQuery();

/** Opens a socket authenticated with the owner's key (`connection_ack` received). */
async function authenticated(): Promise<WebSocket> {
  const ws = new WebSocket(`${t.skiff.url.replace("http", "ws")}/graphql`, "graphql-transport-ws");
  await new Promise((resolve, reject) => {
    ws.once("open", resolve);
    ws.once("error", reject);
  });
  await new Promise<void>((resolve, reject) => {
    ws.once("message", (data) =>
      JSON.parse(String(data)).type === "connection_ack" ? resolve() : reject(new Error(String(data))),
    );
    ws.send(JSON.stringify({ type: "connection_init", payload: { authorization: `Bearer ${org.owner.apiKey}` } }));
  });
  return ws;
}

/** Stops reading `ws`'s TCP socket (the server's writes pile up), then sends {@link QUERIES} introspections. */
function flood(ws: WebSocket): Socket {
  const tcp = (ws as unknown as { _socket: Socket })._socket;
  tcp.pause();
  for (let i = 0; i < QUERIES; i++) {
    ws.send(JSON.stringify({ id: `q${i}`, type: "subscribe", payload: { query: INTROSPECTION } }));
  }
  return tcp;
}

/** The graphql-ws log lines since line `from`. */
function wsLines(from: number): Array<Record<string, unknown>> {
  return logs.lines.slice(from).filter((line) => String(line.msg).startsWith("graphql-ws"));
}

/** Resolves once `done()` holds; false after `ms`. */
async function until(done: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!done()) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return true;
}

describe("graphql-ws back-pressure", () => {
  it("closes with 1013 a socket whose client does not read, once its send buffer passes the bound", async () => {
    const from = logs.lines.length;
    const ws = await authenticated();
    const tcp = flood(ws);
    // The server gives up on the socket (one debug line) long before it has answered every query.
    expect(await until(() => wsLines(from).length > 0, 15_000), "the socket dropped").toBe(true);
    expect(wsLines(from).map((line) => [line.level, line.msg])).toEqual([[20, "graphql-ws: writes dropped"]]);
    expect(JSON.stringify(wsLines(from)[0])).toContain(String(MAX_BUFFERED_BYTES));
    // The client reads again: the answers buffered before the bound, then the close.
    let answers = 0;
    ws.on("message", (data) => {
      if (JSON.parse(String(data)).type === "next") answers++;
    });
    const code = new Promise<number>((resolve) => ws.once("close", (c) => resolve(c)));
    tcp.resume();
    expect(await code).toBe(BEHIND_CLOSE_CODE);
    expect(answers).toBeGreaterThan(0);
    expect(answers).toBeLessThan(QUERIES);
    expect(logs.lines.slice(from).filter((line) => Number(line.level) >= 50)).toEqual([]);
  });

  it("logs no internal error for a client gone with answers pending, and stops working for it", async () => {
    const from = logs.lines.length;
    const ws = await authenticated();
    const tcp = flood(ws);
    // Answers pending in the server's buffers (dropped already, or not yet), then the client disappears.
    await until(() => wsLines(from).length > 0, 3000);
    tcp.destroy();
    await until(() => ws.readyState === WebSocket.CLOSED, 5000);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const answer = await gql(t.skiff.url, "{ __typename }", {}, { apiKey: org.owner.apiKey });
    expect(answer.status).toBe(200);
    const lines = logs.lines.slice(from);
    expect(lines.filter((line) => Number(line.level) >= 40)).toEqual([]);
    expect(wsLines(from).length).toBeLessThanOrEqual(1);
    expect(wsLines(from).every((line) => line.level === 20)).toBe(true);
  });
});
