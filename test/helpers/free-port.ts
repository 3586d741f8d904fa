/** Free loopback ports for tests that start servers of their own. */
import { createServer } from "node:net";

/** A TCP port free on 127.0.0.1 right now (the kernel's choice; another process may take it later). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
    probe.on("error", reject);
  });
}
