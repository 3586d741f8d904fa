/**
 * A loopback HTTPS webhook receiver that answers 200 at once and counts requests per `X-Webhook-Delivery` (the
 * chaos harness and `bench:cluster`: lost and doubled deliveries). Plain Node, no vitest imports: scripts use it
 * outside the test runner, with the test CA's files (test/helpers/test-ca.ts).
 */
import { readFileSync } from "node:fs";
import { createServer } from "node:https";
import type { AddressInfo } from "node:net";

/** A running counting receiver. */
export interface CountingReceiver {
  /** `https://127.0.0.1:<port>/hook`. */
  url: string;
  /** Requests per delivery id. */
  seen: Map<string, number>;
  /** Called after each request is counted (replace it to wait for deliveries). */
  onDelivery: () => void;
  close(): Promise<void>;
}

/** Starts a receiver on 127.0.0.1 with the certificate and key of `tls` (PEM file paths). */
export async function startCountingReceiver(tls: { certFile: string; keyFile: string }): Promise<CountingReceiver> {
  const seen = new Map<string, number>();
  const server = createServer({ cert: readFileSync(tls.certFile), key: readFileSync(tls.keyFile) }, (req, res) => {
    req.resume();
    req.on("end", () => {
      const id = String(req.headers["x-webhook-delivery"] ?? "");
      seen.set(id, (seen.get(id) ?? 0) + 1);
      res.writeHead(200).end("ok");
      receiver.onDelivery();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const receiver: CountingReceiver = {
    url: `https://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    seen,
    onDelivery: () => {},
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return receiver;
}
