/**
 * The outbound client against real loopback receivers. HTTPS with verification on (the test CA is
 * trusted only through NODE_EXTRA_CA_CERTS), allow-listed receivers reached, redirects returned not followed,
 * bodies capped, connect and total timeouts, connection failures typed, metrics counted.
 */
import { get } from "node:https";
import type { AddressInfo } from "node:net";
import { createServer, type Server, type Socket } from "node:net";
import { networkInterfaces } from "node:os";
import { register } from "prom-client";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { parseAllowList } from "../../src/http/address-policy.ts";
import { createOutboundClient, type OutboundClient } from "../../src/http/outbound-client.ts";
import {
  OutboundBlockedError,
  OutboundConnectionError,
  OutboundInvalidUrlError,
  OutboundTimeoutError,
} from "../../src/http/outbound-errors.ts";
import { type CountingSocket, startCountingSocket } from "../helpers/counting-socket.ts";
import { type HttpsReceiver, startHttpsReceiver } from "../helpers/https-receiver.ts";

const silent = { warn() {}, debug() {} };
/** True when this machine has an IPv6 loopback address (`::1` on an interface). */
const IPV6_LOOPBACK = Object.values(networkInterfaces()).some((addresses) =>
  addresses?.some((a) => a.family === "IPv6" && a.address === "::1"),
);
const CLUSTER = "svc.cluster.local";

let receiver: HttpsReceiver;
let client: OutboundClient;

beforeAll(async () => {
  receiver = await startHttpsReceiver();
  client = createOutboundClient({ allow: "127.0.0.1", clusterDomain: CLUSTER, log: silent });
});
afterAll(async () => {
  await receiver?.close();
});
afterEach(() => {
  receiver.requests.length = 0;
  receiver.respond({});
});

async function outcomeCount(outcome: string): Promise<number> {
  const metric = register.getSingleMetric("skiff_outbound_requests_total");
  const values = (await metric?.get())?.values ?? [];
  return values.find((v) => v.labels.outcome === outcome)?.value ?? 0;
}

describe("the test CA", () => {
  it("reaches workers through NODE_EXTRA_CA_CERTS: plain node:https trusts the receiver with verification on", async () => {
    expect(process.env.NODE_EXTRA_CA_CERTS).toMatch(/ca\.pem$/);
    const status = await new Promise<number>((resolve, reject) => {
      get(`${receiver.url}/ping`, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      }).on("error", reject);
    });
    expect(status).toBe(200);
  });
});

describe("an allow-listed HTTPS receiver", () => {
  it("is reached: exact body bytes and headers arrive, the answer comes back with the dialled address", async () => {
    receiver.respond({ status: 201, headers: { "x-receiver": "yes" }, body: "created" });
    const body = Buffer.from([0x7b, 0x22, 0xc3, 0xa9, 0x22, 0x3a, 0x31, 0x7d, 0x0a]);
    const res = await client.request({
      method: "POST",
      url: `${receiver.url}/hooks/1?attempt=2`,
      headers: { "content-type": "application/json", "webhook-signature": "v1,abc" },
      body,
    });
    expect(res).toMatchObject({ status: 201, truncated: false, address: "127.0.0.1" });
    expect(res.body.toString()).toBe("created");
    expect(res.headers["x-receiver"]).toBe("yes");
    expect(res.durationMs).toBeGreaterThan(0);
    const [seen] = await receiver.waitForRequests(1);
    expect(seen).toMatchObject({ method: "POST", path: "/hooks/1?attempt=2" });
    expect(seen.body.equals(body)).toBe(true);
    expect(seen.headers["webhook-signature"]).toBe("v1,abc");
    expect(seen.headers["content-type"]).toBe("application/json");
  });

  it("is refused without the allow-list entry, and never contacted", async () => {
    const strict = createOutboundClient({ allow: "", clusterDomain: CLUSTER, log: silent });
    await expect(strict.request({ url: receiver.url })).rejects.toMatchObject({
      name: "OutboundBlockedError",
      reason: "blocked address 127.0.0.1 (loopback)",
    });
    expect(receiver.requests).toHaveLength(0);
  });

  it("is reached by name through the system resolver when the name is allow-listed (localhost)", async () => {
    const byName = createOutboundClient({ allow: "localhost", clusterDomain: CLUSTER, log: silent });
    const res = await byName.request({ url: `https://localhost:${receiver.port}/by-name` });
    expect(res.status).toBe(200);
    expect(receiver.requests.map((r) => r.path)).toEqual(["/by-name"]);
  });

  it("keeps TLS verification on: a certificate for another name fails", async () => {
    const wrongName = createOutboundClient({
      allow: "127.0.0.0/8",
      clusterDomain: CLUSTER,
      log: silent,
      lookup: async () => [{ address: "127.0.0.1", family: 4 }],
    });
    const error = await wrongName.request({ url: `https://hooks.example.org:${receiver.port}/` }).catch((e) => e);
    expect(error).toBeInstanceOf(OutboundConnectionError);
    expect(error.code).toBe("ERR_TLS_CERT_ALTNAME_INVALID");
    expect(receiver.requests).toHaveLength(0);
  });

  // Skipped (and so listed by Vitest and refused by .ci/run) where no interface has ::1; where one has, a receiver
  // that cannot listen on it fails the test.
  it.skipIf(!IPV6_LOOPBACK)("over IPv6 loopback when ::1 is allow-listed", async () => {
    const v6 = await startHttpsReceiver({ host: "::1" });
    try {
      const c = createOutboundClient({ allow: "::1", clusterDomain: CLUSTER, log: silent });
      const res = await c.request({ url: `${v6.url}/six` });
      expect(res).toMatchObject({ status: 200, address: "::1" });
      expect(v6.requests).toHaveLength(1);
    } finally {
      await v6.close();
    }
  });
});

describe("redirects", () => {
  let counting: CountingSocket;
  beforeAll(async () => {
    counting = await startCountingSocket("127.0.0.1");
  });
  afterAll(() => counting.close());

  it.each([301, 302, 303, 307, 308])("returns a %i as is and does not follow it", async (status) => {
    receiver.respond({ status, headers: { location: `https://127.0.0.1:${counting.port}/next` }, body: "" });
    const res = await client.request({ method: "POST", url: `${receiver.url}/start`, body: "x" });
    expect(res.status).toBe(status);
    expect(res.headers.location).toBe(`https://127.0.0.1:${counting.port}/next`);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(counting.accepts()).toBe(0);
    expect(receiver.requests).toHaveLength(1);
  });
});

describe("response bodies", () => {
  it("are cut at 64 KiB by default, the rest discarded", async () => {
    receiver.respond({ body: Buffer.alloc(1024 * 1024, 0x61) });
    const res = await client.request({ url: receiver.url });
    expect(res.body.length).toBe(64 * 1024);
    expect(res.truncated).toBe(true);
  });

  it("are cut at maxBodyBytes, and kept whole when they fit", async () => {
    receiver.respond({ body: "0123456789abcdef" });
    const cut = await client.request({ url: receiver.url, maxBodyBytes: 10 });
    expect(cut).toMatchObject({ truncated: true });
    expect(cut.body.toString()).toBe("0123456789");
    const whole = await client.request({ url: receiver.url, maxBodyBytes: 16 });
    expect(whole).toMatchObject({ truncated: false });
    expect(whole.body.toString()).toBe("0123456789abcdef");
  });
});

describe("timeouts and failures", () => {
  let silentServer: Server;
  let silentPort: number;
  const held = new Set<Socket>();
  beforeAll(async () => {
    // Accepts TCP connections and never speaks: the TLS handshake cannot finish.
    silentServer = createServer((socket) => {
      held.add(socket);
    });
    await new Promise<void>((resolve) => silentServer.listen(0, "127.0.0.1", () => resolve()));
    silentPort = (silentServer.address() as AddressInfo).port;
  });
  afterAll(async () => {
    for (const socket of held) socket.destroy();
    await new Promise((resolve) => silentServer.close(resolve));
  });

  it("a connect (TCP + TLS handshake) slower than connectTimeoutMs fails with phase connect", async () => {
    const started = performance.now();
    const error = await client
      .request({ url: `https://127.0.0.1:${silentPort}/`, connectTimeoutMs: 200, timeoutMs: 5_000 })
      .catch((e) => e);
    expect(error).toBeInstanceOf(OutboundTimeoutError);
    expect(error).toMatchObject({ phase: "connect", timeoutMs: 200 });
    expect(error.message).toMatch(/^connect timeout after 200 ms/);
    expect(performance.now() - started).toBeLessThan(1_500);
  });

  it("an answer slower than timeoutMs fails with phase total", async () => {
    receiver.respond({ delayMs: 3_000 });
    const started = performance.now();
    const error = await client.request({ url: receiver.url, timeoutMs: 300 }).catch((e) => e);
    expect(error).toBeInstanceOf(OutboundTimeoutError);
    expect(error).toMatchObject({ phase: "total", timeoutMs: 300 });
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it("a body that trickles past timeoutMs fails with phase total", async () => {
    receiver.respond({ bodyDelayMs: 3_000 });
    const error = await client.request({ url: receiver.url, timeoutMs: 300 }).catch((e) => e);
    expect(error).toBeInstanceOf(OutboundTimeoutError);
    expect(error).toMatchObject({ phase: "total" });
  });

  it("a closed port is a connection error (ECONNREFUSED)", async () => {
    const closed = await startCountingSocket("127.0.0.1");
    await closed.close();
    const error = await client.request({ url: `https://127.0.0.1:${closed.port}/` }).catch((e) => e);
    expect(error).toBeInstanceOf(OutboundConnectionError);
    expect(error.code).toBe("ECONNREFUSED");
  });

  it("a receiver that hangs up without answering is a connection error", async () => {
    receiver.respond({ close: true });
    const error = await client.request({ method: "POST", url: receiver.url, body: "x" }).catch((e) => e);
    expect(error).toBeInstanceOf(OutboundConnectionError);
    expect(error.message).toMatch(/^connection failed: /);
  });

  it("a name that does not resolve is a connection error", async () => {
    const c = createOutboundClient({
      allow: "",
      clusterDomain: CLUSTER,
      log: silent,
      lookup: async () => {
        throw Object.assign(new Error("getaddrinfo ENOTFOUND"), { code: "ENOTFOUND" });
      },
    });
    await expect(c.request({ url: "https://nowhere.example.org/" })).rejects.toMatchObject({
      name: "OutboundConnectionError",
      code: "ENOTFOUND",
      message: "cannot resolve nowhere.example.org (ENOTFOUND)",
    });
  });
});

describe("URLs and configuration", () => {
  it.each([
    ["not a url", /^invalid URL/],
    ["ftp://example.org/file", /^unsupported URL scheme ftp:/],
    ["file:///etc/passwd", /^unsupported URL scheme file:/],
    ["gopher://example.org/", /^unsupported URL scheme gopher:/],
    ["https://user:secret@example.org/", /^credentials in the URL are not supported$/],
  ])("refuses %s as an invalid URL", async (url, message) => {
    const error = await client.checkUrl(url).catch((e) => e);
    expect(error).toBeInstanceOf(OutboundInvalidUrlError);
    expect(error.message).toMatch(message);
    await expect(client.request({ url })).rejects.toBeInstanceOf(OutboundInvalidUrlError);
  });

  it("parses SKIFF_OUTBOUND_ALLOW entries and rejects malformed ones", () => {
    const list = parseAllowList(" 10.1.2.0/24, ::1 ,hooks.corp.internal, *.svc.cluster.local,127.0.0.1,");
    expect(list.entries).toEqual(["10.1.2.0/24", "::1", "hooks.corp.internal", "*.svc.cluster.local", "127.0.0.1"]);
    expect(list.cidrs.map(([ip, bits]) => `${ip.toString()}/${bits}`)).toEqual([
      "10.1.2.0/24",
      "::1/128",
      "127.0.0.1/32",
    ]);
    expect(list.names).toEqual(["hooks.corp.internal"]);
    expect(list.suffixes).toEqual([".svc.cluster.local"]);
    expect(parseAllowList("").entries).toEqual([]);
    expect(() => parseAllowList("10.0.0.0/33")).toThrow(/"10.0.0.0\/33" is not a valid CIDR/);
    expect(() => parseAllowList("exa mple.com")).toThrow(/neither a CIDR/);
    expect(() => parseAllowList("127.1")).toThrow(/neither a CIDR/);
  });

  it("exempts allow-listed names and ranges only: a cluster receiver, a private range", async () => {
    const lookup = async (name: string) =>
      name.startsWith("hooks.") ? [{ address: "10.1.2.3", family: 4 }] : [{ address: "10.9.9.9", family: 4 }];
    const c = createOutboundClient({
      allow: "hooks.default.svc.cluster.local,10.1.2.0/24",
      clusterDomain: CLUSTER,
      log: silent,
      lookup,
    });
    await expect(c.checkUrl("http://hooks.default.svc.cluster.local/")).resolves.toMatchObject({
      addresses: [{ address: "10.1.2.3" }],
    });
    await expect(c.checkUrl("http://10.1.2.200/")).resolves.toMatchObject({ host: "10.1.2.200" });
    await expect(c.checkUrl("http://other.default.svc.cluster.local/")).rejects.toThrow(
      "blocked host name other.default.svc.cluster.local (cluster-internal)",
    );
    await expect(c.checkUrl("http://10.1.3.1/")).rejects.toThrow("blocked address 10.1.3.1 (private)");
    await expect(c.checkUrl("http://public.example.org/")).rejects.toThrow("blocked address 10.9.9.9 (private)");
  });

  it("warns at creation when the allow-list is set, and only then", () => {
    const warnings: Array<{ obj: object; msg: string }> = [];
    const log = { warn: (obj: object, msg: string) => warnings.push({ obj, msg }), debug() {} };
    createOutboundClient({ allow: "", clusterDomain: CLUSTER, log });
    expect(warnings).toHaveLength(0);
    createOutboundClient({ allow: "127.0.0.1,hooks.corp.internal", clusterDomain: CLUSTER, log });
    expect(warnings).toEqual([
      {
        obj: { allow: ["127.0.0.1", "hooks.corp.internal"] },
        msg: expect.stringMatching(/^SKIFF_OUTBOUND_ALLOW is set/),
      },
    ]);
  });
});

describe("metrics", () => {
  it("counts calls by outcome in skiff_outbound_requests_total and observes durations", async () => {
    const before = {
      ok: await outcomeCount("ok"),
      http_error: await outcomeCount("http_error"),
      blocked: await outcomeCount("blocked"),
    };
    await client.request({ url: receiver.url });
    receiver.respond({ status: 500 });
    await client.request({ url: receiver.url });
    await client.request({ url: "http://10.0.0.1/" }).catch((e) => expect(e).toBeInstanceOf(OutboundBlockedError));
    expect(await outcomeCount("ok")).toBe(before.ok + 1);
    expect(await outcomeCount("http_error")).toBe(before.http_error + 1);
    expect(await outcomeCount("blocked")).toBe(before.blocked + 1);
    const text = await register.metrics();
    expect(text).toMatch(/skiff_outbound_request_duration_seconds_count\{outcome="ok"\} \d+/);
  });
});

describe("secrets in URLs", () => {
  it("stay out of error messages: only the origin is named", async () => {
    receiver.respond({ delayMs: 2_000 });
    const error = await client
      .request({ url: `${receiver.url}/hooks/T0K3N-SECRET?sig=abc`, timeoutMs: 200 })
      .catch((e) => e);
    expect(error).toBeInstanceOf(OutboundTimeoutError);
    expect(error.message).toBe(`request timeout after 200 ms (${receiver.url})`);
  });
});
