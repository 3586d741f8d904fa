/**
 * A request kept in flight on purpose: its body is sent in two halves, the second only on `finish()`, so the
 * server has received it (headers and part of the body) but cannot answer yet. For shutdown tests.
 */
import http from "node:http";

/** Outcome of a slow request: the status and body, or the socket error code (e.g. `ECONNRESET`). */
export interface SlowResult {
  status?: number;
  body?: string;
  error?: string;
}

/** Starts POSTing `body` (JSON) to `url` on its own connection, with extra `headers`. */
export function slowPost(url: string, body: string, headers: Record<string, string> = {}) {
  const request = http.request(url, {
    method: "POST",
    agent: false,
    headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body), ...headers },
  });
  const half = Math.floor(body.length / 2);
  const connected = new Promise<void>((resolve) => request.once("socket", (s) => s.once("connect", resolve)));
  request.write(body.slice(0, half));
  const result = new Promise<SlowResult>((resolve) => {
    request.on("response", (res) => {
      let text = "";
      res.setEncoding("utf8").on("data", (c: string) => {
        text += c;
      });
      res.on("end", () => resolve({ status: res.statusCode, body: text }));
      res.on("error", (e: NodeJS.ErrnoException) => resolve({ error: e.code ?? e.message }));
    });
    request.on("error", (e: NodeJS.ErrnoException) => resolve({ error: e.code ?? e.message }));
  });
  return {
    /** Resolves once the connection is open (the headers and first half follow at once). */
    connected,
    result,
    /** Sends the rest of the body. */
    finish: () => request.end(body.slice(half)),
  };
}
