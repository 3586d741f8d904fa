/**
 * The client address of a request: the socket's peer address, or — only when
 * SKIFF_TRUST_PROXY is on, i.e. Skiff runs behind a proxy that sets it — the first address of
 * `X-Forwarded-For`. Without the switch the header is ignored, so clients cannot choose their own address.
 */
import type { IncomingMessage } from "node:http";

/** Address used for per-address limits; `"unknown"` when the socket has none (already closed). */
export function clientAddress(request: IncomingMessage, trustProxy: boolean): string {
  if (trustProxy) {
    const header = request.headers["x-forwarded-for"];
    const first = (Array.isArray(header) ? header[0] : header)?.split(",")[0]?.trim();
    if (first) return first;
  }
  return request.socket.remoteAddress ?? "unknown";
}
