/**
 * A reverse proxy on loopback as an ingress controller is: HTTP requests and WebSocket upgrades are forwarded to
 * `target`, with the address the request came from appended to `X-Forwarded-For` (what the client sent is kept,
 * left of it). It connects to the target from `localAddress` (a loopback address of its own, e.g. `127.0.0.9`),
 * so that the target can trust exactly that address.
 */
import http from "node:http";
import net from "node:net";

/** A running proxy: its URL, and `close()` (every open connection cut). */
export interface ForwardingProxy {
  url: string;
  close(): Promise<void>;
}

/** `headers` with the peer `address` appended to `X-Forwarded-For`. */
function forwarded(headers: http.IncomingHttpHeaders, address: string): http.OutgoingHttpHeaders {
  const previous = headers["x-forwarded-for"];
  const chain = [...(Array.isArray(previous) ? previous : previous ? [previous] : []), address].join(", ");
  return { ...headers, "x-forwarded-for": chain };
}

/** Starts a proxy to `target` (an `http://host:port` URL) connecting from `localAddress`. */
export async function forwardingProxy(target: string, localAddress: string): Promise<ForwardingProxy> {
  const to = new URL(target);
  const sockets = new Set<net.Socket>();
  const server = http.createServer((req, res) => {
    const upstream = http.request(
      {
        host: to.hostname,
        port: to.port,
        localAddress,
        method: req.method,
        path: req.url,
        headers: forwarded(req.headers, req.socket.remoteAddress ?? ""),
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on("error", () => res.destroy());
    req.pipe(upstream);
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });
  server.on("upgrade", (req, client, head) => {
    const upstream = net.connect({ host: to.hostname, port: Number(to.port), localAddress }, () => {
      const headers = forwarded(req.headers, req.socket.remoteAddress ?? "");
      const lines = [`${req.method} ${req.url} HTTP/1.1`];
      for (const [name, value] of Object.entries(headers)) {
        for (const v of Array.isArray(value) ? value : [value]) lines.push(`${name}: ${v}`);
      }
      upstream.write(`${lines.join("\r\n")}\r\n\r\n`);
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client).pipe(upstream);
    });
    sockets.add(upstream);
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    upstream.on("error", end).on("close", end);
    client.on("error", end).on("close", end);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
