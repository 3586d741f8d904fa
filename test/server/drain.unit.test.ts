/**
 * The HTTP drain of a graceful shutdown (one connection reset in about two SIGTERMs under load),
 * on a real HTTP server on loopback with real clients: a response ended but still being written is not cut, a
 * connection whose request has not arrived yet is answered rather than reset, responses written while draining say
 * `Connection: close`, the drain then ends with every connection closed, and a request still unanswered at the
 * deadline gets 503 rather than a reset.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { type RequestDrain, trackRequests } from "../../src/server/drain.ts";

let server: http.Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

/** Starts a tracked server on 127.0.0.1 with `handler`. */
async function start(handler: http.RequestListener): Promise<{ port: number; drain: RequestDrain }> {
  server = http.createServer(handler);
  const drain = trackRequests(server);
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return { port: (server.address() as AddressInfo).port, drain };
}

const BIG = 16 * 1024 * 1024;

describe("drain", () => {
  it("does not cut a response that was ended but whose bytes are still being written", async () => {
    let received: () => void = () => {};
    const requestSeen = new Promise<void>((resolve) => (received = resolve));
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    const { port, drain } = await start(async (_req, res) => {
      received();
      await released;
      res.end(Buffer.alloc(BIG, 120)); // `finished` at once; the bytes drain as the client reads
    });
    const answer = new Promise<{ bytes: number; error?: string }>((resolve) => {
      const req = http.get({ host: "127.0.0.1", port, agent: false }, (res) => {
        let bytes = 0;
        res.pause();
        // The client reads slowly at first: the server's socket buffer stays full for a while.
        setTimeout(() => res.resume(), 400);
        res.on("data", (chunk: Buffer) => {
          bytes += chunk.length;
        });
        res.on("end", () => resolve({ bytes }));
        res.on("error", (e: NodeJS.ErrnoException) => resolve({ bytes, error: e.code ?? e.message }));
        res.on("aborted", () => resolve({ bytes, error: "aborted" }));
      });
      req.on("error", (e: NodeJS.ErrnoException) => resolve({ bytes: 0, error: e.code ?? e.message }));
    });
    await requestSeen;
    const draining = drain.drain(10_000);
    await new Promise((resolve) => setTimeout(resolve, 50));
    release();
    expect(await answer).toEqual({ bytes: BIG });
    expect(await draining).toBe(0);
  });

  it("answers a connection accepted before the drain whose request arrives during it", async () => {
    const { port, drain } = await start((_req, res) => res.end("answered"));
    const socket = net.connect(port, "127.0.0.1");
    await new Promise((resolve) => socket.once("connect", resolve));
    await new Promise((resolve) => setTimeout(resolve, 50)); // the server has accepted it
    let text = "";
    socket.setEncoding("utf8").on("data", (c: string) => {
      text += c;
    });
    const ended = new Promise<string | undefined>((resolve) => {
      socket.once("close", () => resolve(undefined));
      socket.once("error", (e: NodeJS.ErrnoException) => resolve(e.code));
    });
    const draining = drain.drain(10_000);
    await new Promise((resolve) => setTimeout(resolve, 150));
    socket.write("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n");
    expect(await ended).toBeUndefined();
    expect(text).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(text.toLowerCase()).toContain("connection: close");
    expect(text).toMatch(/answered$/);
    expect(await draining).toBe(0);
  });

  it("tells keep-alive clients `Connection: close` while draining and closes their idle connections", async () => {
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    let seen = 0;
    const { port, drain } = await start(async (req, res) => {
      seen++;
      if (req.url === "/slow") await released;
      res.end("ok");
    });
    const agent = new http.Agent({ keepAlive: true, maxSockets: 2 });
    const get = (path: string) =>
      new Promise<http.IncomingMessage>((resolve, reject) => {
        http
          .get({ host: "127.0.0.1", port, path, agent }, (res) => {
            res.resume();
            res.on("end", () => resolve(res));
          })
          .on("error", reject);
      });
    const first = await get("/fast"); // leaves an idle keep-alive connection
    expect(first.headers.connection).toBe("keep-alive");
    const slow = get("/slow");
    while (seen < 2) await new Promise((resolve) => setTimeout(resolve, 10));
    const started = Date.now();
    const draining = drain.drain(10_000);
    await new Promise((resolve) => setTimeout(resolve, 100));
    release();
    const answered = await slow;
    expect(answered.statusCode).toBe(200);
    expect(answered.headers.connection).toBe("close");
    expect(await draining).toBe(0);
    expect(Date.now() - started).toBeLessThan(FRESH_LIMIT_MS);
    agent.destroy();
  });
});

describe("drain and busy keep-alive clients", () => {
  it("answers every request a keep-alive client sends as the drain begins: none is reset", async () => {
    const { port, drain } = await start((_req, res) => res.end("ok"));
    const agent = new http.Agent({ keepAlive: true, maxSockets: 6 });
    const outcomes: Record<string, number> = {};
    let stop = false;
    /** Sends back to back on one keep-alive connection until an answer says `Connection: close`. */
    const loop = async () => {
      while (!stop) {
        const result = await new Promise<string>((resolve) => {
          http
            .get({ host: "127.0.0.1", port, path: "/", agent }, (res) => {
              res.resume();
              res.on("end", () => resolve(res.headers.connection === "close" ? "closed" : String(res.statusCode)));
            })
            .on("error", (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message));
        });
        outcomes[result] = (outcomes[result] ?? 0) + 1;
        if (result !== "200") return;
      }
    };
    const loops = Array.from({ length: 6 }, loop);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const drained = await drain.drain(10_000);
    stop = true;
    await Promise.all(loops);
    agent.destroy();
    expect(drained).toBe(0);
    // Each loop ended on an answer telling it to close, never on a reset.
    expect(outcomes.closed).toBe(6);
    expect(Object.keys(outcomes).sort()).toEqual(["200", "closed"]);
  });
});

describe("drain deadline", () => {
  it("answers a request its handler has not answered by the deadline with 503, Retry-After and Connection: close", async () => {
    let received: () => void = () => {};
    const requestSeen = new Promise<void>((resolve) => (received = resolve));
    const { port, drain } = await start((req) => {
      received();
      req.resume(); // the handler never answers
    });
    const answer = new Promise<{ status?: number; headers?: http.IncomingHttpHeaders; body?: string; error?: string }>(
      (resolve) => {
        const req = http.request(
          { host: "127.0.0.1", port, path: "/api/slow", method: "POST", agent: false },
          (res) => {
            let body = "";
            res.setEncoding("utf8").on("data", (c: string) => {
              body += c;
            });
            res.on("end", () => resolve({ status: res.statusCode, headers: res.headers, body }));
            res.on("error", (e: NodeJS.ErrnoException) => resolve({ error: e.code ?? e.message }));
          },
        );
        req.on("error", (e: NodeJS.ErrnoException) => resolve({ error: e.code ?? e.message }));
        req.end("{}");
      },
    );
    await requestSeen;
    const started = Date.now();
    expect(await drain.drain(300)).toBe(1);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    const res = await answer;
    expect(res.error).toBeUndefined();
    expect(res.status).toBe(503);
    expect(res.headers?.["retry-after"]).toBe("1");
    expect(res.headers?.connection).toBe("close");
    expect(JSON.parse(res.body ?? "{}")).toMatchObject({ code: "SERVICE_UNAVAILABLE" });
  });

  it("answers GraphQL's shape on /graphql", async () => {
    let received: () => void = () => {};
    const requestSeen = new Promise<void>((resolve) => (received = resolve));
    const { port, drain } = await start(() => received());
    const body = new Promise<string>((resolve, reject) => {
      http
        .get({ host: "127.0.0.1", port, path: "/graphql?query=%7B__typename%7D", agent: false }, (res) => {
          let text = "";
          res.setEncoding("utf8").on("data", (c: string) => {
            text += c;
          });
          res.on("end", () => resolve(text));
        })
        .on("error", reject);
    });
    await requestSeen;
    expect(await drain.drain(100)).toBe(1);
    expect(JSON.parse(await body)).toEqual({
      errors: [{ message: expect.stringContaining("shutting down"), extensions: { code: "SERVICE_UNAVAILABLE" } }],
    });
  });
});

/** A drain with only keep-alive connections that served requests waits for no grace period. */
const FRESH_LIMIT_MS = 900;
