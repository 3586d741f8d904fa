/**
 * The client address of a request behind reverse proxies: the standard trusted-proxy model (RFC 7239's
 * forwarding chain as `X-Forwarded-For` carries it). Each proxy appends the address it received the request from,
 * so the chain is read from the right: the socket's peer, then `X-Forwarded-For` from its last entry backwards;
 * the client is the first address that is not a trusted proxy. Entries left of it were written by the client
 * itself and are never believed. Resolution is @fastify/proxy-addr's, the one Fastify uses for `request.ip`, so
 * HTTP (sign-in and sign-up limits, request logs, session addresses) and the WebSocket upgrade (the
 * pre-authentication limit) resolve the same address for the same request.
 */
import type { IncomingMessage } from "node:http";
import proxyAddr from "@fastify/proxy-addr";

/**
 * Which peers are proxies (SKIFF_TRUST_PROXY): none; the nearest `hops` peers (the socket's, then `hops - 1`
 * entries of `X-Forwarded-For` from the right); or the peers whose address is in `addresses` (IPs, CIDRs, or
 * proxy-addr's names `loopback`, `linklocal`, `uniquelocal`).
 */
export type TrustedProxies =
  | { kind: "none" }
  | { kind: "hops"; hops: number }
  | { kind: "addresses"; addresses: string[] };

/** Whether the peer `address`, `hop` steps from Skiff (0: the socket's peer), is a trusted proxy. */
export type ProxyTrust = (address: string, hop: number) => boolean;

/**
 * Parses SKIFF_TRUST_PROXY: empty/`false`/`0` → none; a positive integer → that many hops; otherwise a
 * comma-separated list of addresses/CIDRs/names. `true` is refused: it would trust every entry of
 * `X-Forwarded-For`, so the leftmost one — which any client writes — would become the address.
 * @throws Error with a message fit for the configuration error when the value is `true` or names a bad address.
 */
export function parseTrustedProxies(value: string): TrustedProxies {
  const text = value.trim();
  if (text === "" || text === "false" || text === "0") return { kind: "none" };
  if (text === "true") {
    throw new Error(
      "`true` would trust every X-Forwarded-For entry (any client could choose its address): name the proxies' addresses or CIDRs (e.g. 10.0.0.0/8) or a hop count (e.g. 1)",
    );
  }
  if (/^\d+$/.test(text)) return { kind: "hops", hops: Number(text) };
  const addresses = text
    .split(",")
    .map((a) => a.trim())
    .filter(Boolean);
  try {
    proxyAddr.compile(addresses);
  } catch (error) {
    throw new Error(`not an address, CIDR or proxy-addr name: ${(error as Error).message}`);
  }
  return { kind: "addresses", addresses };
}

/** The trust function of `proxies`, for Fastify's `trustProxy` and {@link clientAddress}. */
export function proxyTrust(proxies: TrustedProxies): ProxyTrust {
  switch (proxies.kind) {
    case "none":
      return () => false;
    case "hops":
      return (_address, hop) => hop < proxies.hops;
    case "addresses":
      return proxyAddr.compile(proxies.addresses);
  }
}

/** The client address of `request` under `trust`; `"unknown"` when the socket has none (already closed). */
export function clientAddress(request: IncomingMessage, trust: ProxyTrust): string {
  if (!request.socket.remoteAddress) return "unknown";
  return proxyAddr(request, trust);
}
