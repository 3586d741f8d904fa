/**
 * Draining the HTTP server for a graceful shutdown: stop accepting connections, let requests already
 * received finish (keep-alive connections are closed as soon as they fall idle), and cut what is left at
 * the deadline. Upgraded WebSocket connections are not requests; subscriptions.ts closes them.
 */
import type { Server } from "node:http";

/** Counts the in-flight requests of one HTTP server and drains it. */
export interface RequestDrain {
  /** Requests received and not yet answered (response not closed). */
  readonly inFlight: number;
  /**
   * Stops accepting connections and waits until every in-flight request is answered, at most `timeoutMs`
   * milliseconds; then closes every remaining HTTP connection.
   * @returns the number of requests still unanswered at the deadline (0 on a clean drain).
   */
  drain(timeoutMs: number): Promise<number>;
}

/** Starts counting the requests of `server`; call before it listens. */
export function trackRequests(server: Server): RequestDrain {
  let inFlight = 0;
  let onIdle: (() => void) | null = null;
  server.on("request", (_request, response) => {
    inFlight++;
    response.once("close", () => {
      inFlight--;
      if (inFlight === 0) onIdle?.();
    });
  });
  return {
    get inFlight() {
      return inFlight;
    },
    async drain(timeoutMs) {
      server.close(() => {});
      server.closeIdleConnections();
      // A keep-alive connection falls idle once its response is sent; close those as they appear.
      const reaper = setInterval(() => server.closeIdleConnections(), 50);
      let timer: NodeJS.Timeout | undefined;
      try {
        if (inFlight > 0) {
          await new Promise<void>((resolve) => {
            onIdle = resolve;
            timer = setTimeout(resolve, timeoutMs);
          });
        }
      } finally {
        onIdle = null;
        clearTimeout(timer);
        clearInterval(reaper);
      }
      const left = inFlight;
      server.closeIdleConnections();
      if (left > 0) server.closeAllConnections();
      return left;
    },
  };
}
