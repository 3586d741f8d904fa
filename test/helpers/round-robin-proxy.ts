/**
 * A small round-robin HTTP proxy on loopback (the multi-instance test and `npm run bench:cluster`): every request
 * goes to the next backend on a fresh connection, like a load balancer without stickiness; a backend refusing
 * the connection (a killed instance) is skipped for the next one. WebSockets are not proxied: subscribers connect
 * to an instance directly.
 */
import { Agent, createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** A running proxy: its `url`, requests answered per backend (`served`, same order as `backends`), `close()`. */
export interface RoundRobinProxy {
  url: string;
  served: number[];
  close(): Promise<void>;
}

/** A round-robin HTTP proxy over `backends`; a backend refusing the connection is skipped (and counted). */
export async function startRoundRobinProxy(
  backends: string[],
  options: { keepAlive?: boolean } = {},
): Promise<RoundRobinProxy> {
  // With keepAlive (benchmarks), pooled connections per backend; else a fresh connection per request.
  const agents = backends.map(() => (options.keepAlive ? new Agent({ keepAlive: true, maxSockets: 256 }) : false));
  let next = 0;
  const served = backends.map(() => 0);
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const attempt = (tries: number) => {
        const index = next++ % backends.length;
        const target = new URL(backends[index]!);
        const out = httpRequest(
          {
            host: target.hostname,
            port: target.port,
            method: req.method,
            path: req.url,
            headers: options.keepAlive ? req.headers : { ...req.headers, connection: "close" },
            agent: agents[index],
          },
          (upstream) => {
            served[index]!++;
            res.writeHead(upstream.statusCode ?? 502, upstream.headers);
            upstream.pipe(res);
          },
        );
        out.on("error", () => {
          if (tries + 1 < backends.length && !res.headersSent) attempt(tries + 1);
          else if (!res.headersSent) res.writeHead(502).end("no live backend");
          else res.destroy();
        });
        out.end(body);
      };
      attempt(0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    served,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        for (const agent of agents) if (agent) agent.destroy();
        server.close(() => resolve());
      }),
  };
}
