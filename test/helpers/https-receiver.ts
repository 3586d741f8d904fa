/**
 * A loopback HTTPS server with the test CA's certificate (test/helpers/test-ca.ts) that records every request
 * (raw body bytes, headers) and answers as told: a status, headers and body, after a delay, with a slow body,
 * or by closing the connection without an answer. Webhook and payment relay tests reuse it as the receiver.
 */
import { readFileSync } from "node:fs";
import type { IncomingHttpHeaders, IncomingMessage } from "node:http";
import { createServer, type Server } from "node:https";
import type { AddressInfo, Socket } from "node:net";
import { inject } from "vitest";

/** One request as the receiver saw it. */
export interface RecordedRequest {
  method: string;
  /** Path and query, e.g. `/hooks/1?x=y`. */
  path: string;
  headers: IncomingHttpHeaders;
  /** The body exactly as received. */
  body: Buffer;
  /** Local address the request came in on (e.g. `127.0.0.2`). */
  localAddress: string;
}

/** How to answer the next requests. */
export interface ReceiverBehaviour {
  /** Default 200. */
  status?: number;
  headers?: Record<string, string>;
  /** Default `ok`. */
  body?: string | Buffer;
  /** Wait this long (ms) before sending the status line. */
  delayMs?: number;
  /** Send the headers, then wait this long (ms) before the body. */
  bodyDelayMs?: number;
  /** Destroy the connection instead of answering. */
  close?: boolean;
}

/** A running receiver. */
export interface HttpsReceiver {
  /** `https://<host>:<port>` (IPv6 hosts in brackets). */
  url: string;
  host: string;
  port: number;
  /** Every request so far, oldest first. */
  requests: RecordedRequest[];
  /** Sets the answer for the following requests (a function is called per request). */
  respond(behaviour: ReceiverBehaviour | ((req: RecordedRequest) => ReceiverBehaviour)): void;
  /** Resolves once `count` requests have been recorded; rejects after `timeoutMs` (default 5 000). */
  waitForRequests(count: number, timeoutMs?: number): Promise<RecordedRequest[]>;
  close(): Promise<void>;
}

/**
 * Starts a receiver on `host` (default `127.0.0.1`; the certificate also covers 127.0.0.2, ::1, `localhost`,
 * `skiff.test` and `*.skiff.test`) on a free port.
 */
export async function startHttpsReceiver(
  options: { host?: string; behaviour?: ReceiverBehaviour } = {},
): Promise<HttpsReceiver> {
  const host = options.host ?? "127.0.0.1";
  const tls = inject("testTls");
  let behaviour: ReceiverBehaviour | ((req: RecordedRequest) => ReceiverBehaviour) = options.behaviour ?? {};
  const requests: RecordedRequest[] = [];
  const waiters = new Set<() => void>();
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        resolve();
      }, ms);
      timers.add(timer);
    });

  const server: Server = createServer(
    { cert: readFileSync(tls.certFile), key: readFileSync(tls.keyFile) },
    async (req: IncomingMessage, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const recorded: RecordedRequest = {
        method: req.method ?? "",
        path: req.url ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks),
        localAddress: req.socket.localAddress ?? "",
      };
      requests.push(recorded);
      for (const wake of waiters) wake();
      const answer = typeof behaviour === "function" ? behaviour(recorded) : behaviour;
      if (answer.delayMs) await sleep(answer.delayMs);
      if (answer.close) {
        req.socket.destroy();
        return;
      }
      if (res.destroyed) return;
      res.writeHead(answer.status ?? 200, answer.headers ?? {});
      if (answer.bodyDelayMs) {
        res.flushHeaders();
        await sleep(answer.bodyDelayMs);
      }
      if (!res.destroyed) res.end(answer.body ?? "ok");
    },
  );
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;

  return {
    url: `https://${host.includes(":") ? `[${host}]` : host}:${port}`,
    host,
    port,
    requests,
    respond(next) {
      behaviour = next;
    },
    waitForRequests(count, timeoutMs = 5_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (requests.length < count) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(requests.slice(0, count));
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`receiver got ${requests.length} of ${count} requests within ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    async close() {
      for (const timer of timers) clearTimeout(timer);
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
