/**
 * A TCP proxy in front of PostgreSQL for outage tests: servers connect through it; `close()` is the outage (no
 * new connections, every open one cut), `open()` brings the database back on the same port.
 */
import net from "node:net";

/** A proxy to one target; `url(databaseUrl)` rewrites a database URL to go through it. */
export interface TcpProxy {
  /** Listens (again) on the proxy's port (a free one the first time). */
  open(): Promise<void>;
  /** The outage: stops listening and cuts every open connection. */
  close(): Promise<void>;
  /** `databaseUrl` with its host and port replaced by the proxy's. */
  url(databaseUrl: string): string;
  readonly listening: boolean;
}

/** A proxy forwarding to the host and port of `databaseUrl` (not listening until `open()`). */
export function tcpProxy(databaseUrl: string): TcpProxy {
  const target = new URL(databaseUrl);
  const sockets = new Set<net.Socket>();
  let server: net.Server | undefined;
  let port = 0;
  return {
    open() {
      const s = net.createServer((client) => {
        const upstream = net.connect(Number(target.port || 5432), target.hostname);
        sockets.add(client).add(upstream);
        client.pipe(upstream).pipe(client);
        const end = () => {
          client.destroy();
          upstream.destroy();
        };
        client.on("error", end).on("close", end);
        upstream.on("error", end).on("close", end);
      });
      server = s;
      return new Promise((resolve) =>
        s.listen(port, "127.0.0.1", () => {
          port = (s.address() as net.AddressInfo).port;
          resolve();
        }),
      );
    },
    close() {
      for (const socket of sockets) socket.destroy();
      sockets.clear();
      const s = server;
      return new Promise((resolve) => (s ? s.close(() => resolve()) : resolve()));
    },
    url(databaseUrl) {
      const via = new URL(databaseUrl);
      via.host = `127.0.0.1:${port}`;
      return via.toString();
    },
    get listening() {
      return server?.listening ?? false;
    },
  };
}
