/**
 * The kernel's accept queue of a listening TCP port: connections whose handshake is done (their requests may be
 * sent already) that the process has not accepted yet. Closing the listener resets every one of them, and Node takes
 * them a few per turn of its event loop, so the drain (drain.ts) reads their number when it begins and takes that
 * many before it closes the listener.
 */
import { readFileSync } from "node:fs";

/** The tables of TCP sockets with their queues (Linux, procfs): `st` 0A is LISTEN, `rx_queue` its accept queue. */
const TABLES = ["/proc/net/tcp", "/proc/net/tcp6"];
/** `st` of a listening socket in those tables. */
const LISTEN = "0A";

/**
 * Connections waiting in the accept queue of the listening sockets on `port`, or null where the kernel does not tell
 * (no procfs: not Linux, or hidden). Reads the tables once (synchronously: called once, at shutdown).
 */
export function acceptQueueLength(port: number): number | null {
  const hexPort = port.toString(16).toUpperCase().padStart(4, "0");
  let total = 0;
  let read = false;
  for (const table of TABLES) {
    let text: string;
    try {
      text = readFileSync(table, "latin1");
    } catch {
      continue;
    }
    read = true;
    for (const line of text.split("\n").slice(1)) {
      // `sl local_address rem_address st tx_queue:rx_queue …`, the address `<hex ip>:<hex port>`.
      const [, local, , state, queues] = line.trim().split(/\s+/);
      if (state !== LISTEN || !local?.endsWith(`:${hexPort}`)) continue;
      total += Number.parseInt(queues?.split(":")[1] ?? "0", 16) || 0;
    }
  }
  return read ? total : null;
}
