/**
 * Time limits on what a client sends (src/server/slow-clients.ts), on a real HTTP server on loopback with shorter
 * limits: a connection that stays silent is closed, one trickling its headers gets 408 and is closed, one sending its
 * body too slowly too, while an ordinary request on the same server is answered.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { limitSlowClients } from "../../src/server/slow-clients.ts";

let server: http.Server;
let port: number;
beforeAll(async () => {
  server = http.createServer({ connectionsCheckingInterval: 100 }, (req, res) => {
    req.resume();
    req.on("end", () => res.end("ok"));
  });
  limitSlowClients(server, { silentMs: 300, headersMs: 400, requestMs: 800 });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** Opens a raw connection, runs `send` on it; @returns what it received and after how long it was closed (ms). */
function raw(send: (socket: net.Socket) => void): Promise<{ received: string; closedAfter: number }> {
  return new Promise((resolve) => {
    const started = Date.now();
    let received = "";
    const socket = net.connect(port, "127.0.0.1", () => send(socket));
    socket.on("data", (d) => {
      received += d;
    });
    socket.on("error", () => undefined);
    socket.on("close", () => resolve({ received, closedAfter: Date.now() - started }));
  });
}

describe("slow clients", () => {
  it("closes a connection that sends nothing", async () => {
    const { received, closedAfter } = await raw(() => undefined);
    expect(received).toBe("");
    expect(closedAfter).toBeGreaterThanOrEqual(250);
    expect(closedAfter).toBeLessThan(3000);
  });

  it("answers 408 to headers or a body that trickle in, and closes their connections", async () => {
    const trickle = (first: string, more: string) => (socket: net.Socket) => {
      socket.write(first);
      const timer = setInterval(() => socket.write(more), 100);
      socket.on("close", () => clearInterval(timer));
    };
    const headers = await raw(trickle("GET / HTTP/1.1\r\nHost: x\r\n", "X-A: b\r\n"));
    expect(headers.received).toMatch(/^HTTP\/1\.1 408/);
    const body = await raw(trickle("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n", "a"));
    expect(body.received).toMatch(/^HTTP\/1\.1 408/);
    expect(body.closedAfter).toBeLessThan(3000);
  });

  it("answers an ordinary request", async () => {
    const res = await fetch(`http://127.0.0.1:${port}/`);
    expect(await res.text()).toBe("ok");
  });
});
