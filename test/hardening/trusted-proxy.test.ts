/**
 * The client address behind reverse proxies (SKIFF_TRUST_PROXY, src/http/client-address.ts) over real HTTP and
 * WebSockets on loopback: clients connect from addresses of their own (127.0.0.2, 127.0.0.3), a reverse proxy that
 * appends to `X-Forwarded-For` (test/helpers/forwarding-proxy.ts) connects from 127.0.0.9, the one address Skiff
 * trusts. A forged header from an untrusted peer is ignored, so is a forged entry left of the proxy's; two clients
 * behind the proxy get separate sign-in limit buckets and separate WebSocket pending-socket budgets; the request
 * log and the attempt-limit rows name the same resolved address.
 */
import http from "node:http";
import { Writable } from "node:stream";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { ATTEMPT_RULES } from "../../src/auth/attempt-limits.ts";
import { loadConfig } from "../../src/config.ts";
import { clientAddress, parseTrustedProxies, proxyTrust } from "../../src/http/client-address.ts";
import { requestSerializer } from "../../src/server/log-redaction.ts";
import { MAX_PENDING_PER_ADDRESS } from "../../src/server/subscriptions.ts";
import { type ForwardingProxy, forwardingProxy } from "../helpers/forwarding-proxy.ts";
import { useTestServer } from "../helpers/server.ts";

const PROXY = "127.0.0.9";
const ALICE = "127.0.0.2";
const BOB = "127.0.0.3";
const FORGED = "203.0.113.77";

const lines: Array<Record<string, unknown>> = [];
const sink = new Writable({
  write(chunk, _encoding, done) {
    for (const line of String(chunk).split("\n")) if (line.trim()) lines.push(JSON.parse(line));
    done();
  },
});
const t = useTestServer(
  { SKIFF_TRUST_PROXY: PROXY },
  pino({ level: "info", serializers: { req: requestSerializer } }, sink),
);
let proxy: ForwardingProxy;
const signInRule = ATTEMPT_RULES.find((r) => r.name === "sign-in")!;

beforeAll(async () => {
  proxy = await forwardingProxy(t.skiff.url, PROXY);
});
afterAll(async () => {
  await proxy?.close();
});

/** POSTs a failed sign-in to `base` from `localAddress`, with an optional `X-Forwarded-For`; @returns the status. */
function signIn(base: string, localAddress: string, email: string, forwardedFor?: string): Promise<number> {
  const url = new URL("/api/auth/sign-in/email", base);
  const body = JSON.stringify({ email, password: "wrong-password" });
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: "POST",
        localAddress,
        headers: {
          "content-type": "application/json",
          "content-length": Buffer.byteLength(body),
          ...(forwardedFor && { "x-forwarded-for": forwardedFor }),
        },
      },
      (res) => {
        res.resume();
        res.once("end", () => resolve(res.statusCode ?? 0));
      },
    );
    req.once("error", reject);
    req.end(body);
  });
}

/** Attempt-limit keys of sign-in per address (rate-limiter-flexible's `<prefix>:<address>`). */
async function addressKeys(): Promise<string[]> {
  const rows = await t.db.knex("auth_attempt_limits").where("key", "like", "sign-in:address:%").select("key");
  return rows.map((r: { key: string }) => r.key.replace("sign-in:address:", "")).sort();
}

/** The `remoteAddress` of the request log lines for sign-in from now on. */
function loggedAddresses(from: number): string[] {
  return lines
    .slice(from)
    .filter((l) => l.msg === "request completed")
    .map((l) => (l.req as { remoteAddress: string; url: string }).remoteAddress);
}

/** Opens a graphql-transport-ws socket to `base` from `localAddress`; resolves 101 when open, else the status. */
function upgrade(
  base: string,
  localAddress: string,
  headers: Record<string, string> = {},
): Promise<[number, WebSocket]> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${base.replace("http", "ws")}/graphql`, "graphql-transport-ws", {
      localAddress,
      headers,
    });
    ws.once("open", () => resolve([101, ws]));
    ws.once("unexpected-response", (_req, res) => resolve([res.statusCode ?? 0, ws]));
    ws.once("error", reject);
  });
}

describe("client address behind a trusted reverse proxy", () => {
  it("ignores X-Forwarded-For from a peer that is not a trusted proxy", async () => {
    const from = lines.length;
    expect(await signIn(t.skiff.url, ALICE, "nobody-direct@example.test", FORGED)).toBe(401);
    expect(await addressKeys()).toEqual([ALICE]);
    expect(loggedAddresses(from)).toEqual([ALICE]);
  });

  it("takes the rightmost address not a trusted proxy: a forged entry left of the proxy's is ignored", async () => {
    const from = lines.length;
    expect(await signIn(proxy.url, BOB, "nobody-forged@example.test", `${FORGED}, ${ALICE}`)).toBe(401);
    expect(await addressKeys()).toEqual([ALICE, BOB]);
    expect(loggedAddresses(from)).toEqual([BOB]);
  });

  // Spends Alice's whole budget (100 attempts, ten at a time): minutes on a loaded machine, not a timing assertion.
  it("gives two clients behind the proxy separate sign-in limit buckets", { timeout: 300_000 }, async () => {
    const statuses: number[] = [];
    while (!statuses.includes(429) && statuses.length < signInRule.perAddress + 10) {
      const batch = Array.from({ length: 10 }, (_, i) =>
        signIn(proxy.url, ALICE, `nobody-${statuses.length + i}@example.test`),
      );
      statuses.push(...(await Promise.all(batch)));
    }
    expect(statuses).toContain(429);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(signInRule.perAddress);
    // Alice's budget is spent; Bob, behind the same proxy, still reaches the check of his password.
    expect(await signIn(proxy.url, BOB, "nobody-bob@example.test")).toBe(401);
    expect(await signIn(proxy.url, ALICE, "nobody-alice@example.test")).toBe(429);
    expect(await addressKeys()).toEqual([ALICE, BOB]);
  });

  it("counts WebSocket sockets pending authentication per resolved address, as HTTP does", async () => {
    const alice = await Promise.all(Array.from({ length: MAX_PENDING_PER_ADDRESS }, () => upgrade(proxy.url, ALICE)));
    expect(alice.map(([status]) => status)).toEqual(alice.map(() => 101));
    const [refused] = await upgrade(proxy.url, ALICE);
    expect(refused).toBe(429);
    // Bob behind the same proxy, and Bob forging Alice's address, have their own budget.
    const [bob, bobSocket] = await upgrade(proxy.url, BOB, { "x-forwarded-for": ALICE });
    expect(bob).toBe(101);
    // Directly, a forged header does not pass for the proxy's client either: the peer is Alice herself.
    const [direct] = await upgrade(t.skiff.url, ALICE, { "x-forwarded-for": BOB });
    expect(direct).toBe(429);
    for (const [, ws] of [...alice, [0, bobSocket] as const]) ws.close();
  });
});

describe("SKIFF_TRUST_PROXY", () => {
  it("takes addresses and CIDRs, a hop count, or nothing; refuses `true` and bad addresses", () => {
    expect(loadConfig({}).SKIFF_TRUST_PROXY).toEqual({ kind: "none" });
    expect(loadConfig({ SKIFF_TRUST_PROXY: "false" }).SKIFF_TRUST_PROXY).toEqual({ kind: "none" });
    expect(loadConfig({ SKIFF_TRUST_PROXY: "1" }).SKIFF_TRUST_PROXY).toEqual({ kind: "hops", hops: 1 });
    expect(loadConfig({ SKIFF_TRUST_PROXY: "10.0.0.0/8, fd00::/8,loopback" }).SKIFF_TRUST_PROXY).toEqual({
      kind: "addresses",
      addresses: ["10.0.0.0/8", "fd00::/8", "loopback"],
    });
    expect(() => loadConfig({ SKIFF_TRUST_PROXY: "true" })).toThrow(/SKIFF_TRUST_PROXY[\s\S]*hop count/);
    expect(() => loadConfig({ SKIFF_TRUST_PROXY: "10.0.0.0/99" })).toThrow(/SKIFF_TRUST_PROXY/);
    expect(() => loadConfig({ SKIFF_TRUST_PROXY: "proxy.example.com" })).toThrow(/SKIFF_TRUST_PROXY/);
  });

  it("resolves the chain from the right under each kind of trust", () => {
    const request = (peer: string, forwardedFor?: string) =>
      ({
        socket: { remoteAddress: peer },
        connection: { remoteAddress: peer },
        headers: forwardedFor ? { "x-forwarded-for": forwardedFor } : {},
      }) as unknown as http.IncomingMessage;
    const chain = "198.51.100.1, 203.0.113.9, 10.1.2.3";
    const resolve = (setting: string, peer: string, header?: string) =>
      clientAddress(request(peer, header), proxyTrust(parseTrustedProxies(setting)));
    expect(resolve("", "10.9.9.9", chain)).toBe("10.9.9.9");
    expect(resolve("10.0.0.0/8", "10.9.9.9", chain)).toBe("203.0.113.9");
    expect(resolve("10.0.0.0/8", "192.0.2.1", chain)).toBe("192.0.2.1");
    expect(resolve("1", "10.9.9.9", chain)).toBe("10.1.2.3");
    expect(resolve("2", "10.9.9.9", chain)).toBe("203.0.113.9");
    expect(resolve("10.0.0.0/8", "10.9.9.9")).toBe("10.9.9.9");
  });
});
