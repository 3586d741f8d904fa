/**
 * A TCP listener that only counts the connections it accepts (and closes them): proof that a refused URL made
 * no connection. It listens on every local address (`::`, dual stack), so a dial to 127.0.0.1, ::1, 0.0.0.0 or
 * any of the machine's own addresses on its port is counted.
 */

import type { AddressInfo } from "node:net";
import { createServer } from "node:net";

/** A running counting listener. */
export interface CountingSocket {
  port: number;
  /** Connections accepted so far. */
  accepts(): number;
  close(): Promise<void>;
}

/** Starts the listener on `host` (default `::`, all addresses) and `port` (default: a free one). */
export async function startCountingSocket(host = "::", port = 0): Promise<CountingSocket> {
  let accepted = 0;
  const server = createServer((socket) => {
    accepted += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen({ port, host, ipv6Only: false }, () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    accepts: () => accepted,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
