/**
 * Against a real DNS server (dns2 on loopback UDP): a public-looking name that answers a private
 * address is refused; a name whose answer changes between lookups (DNS rebinding) cannot move a call to an
 * unchecked address, because the client resolves once and dials only what it checked. A name's kept resolution
 * (`dnsCacheMs`) serves later calls until it expires, one lookup for calls that wait together; a name that turns to a
 * refused address is refused from its next resolution on, and a failed resolution is not kept.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createOutboundClient, type OutboundClient } from "../../src/http/outbound-client.ts";
import { OutboundBlockedError } from "../../src/http/outbound-errors.ts";
import { type CountingSocket, startCountingSocket } from "../helpers/counting-socket.ts";
import { startDnsServer, type TestDnsServer } from "../helpers/dns-server.ts";
import { type HttpsReceiver, startHttpsReceiver } from "../helpers/https-receiver.ts";

const silent = { warn() {}, debug() {} };

// The checked ("good") address is 127.0.0.2, allow-listed and serving the receiver; the rebinding target is
// 127.0.0.1 on the same port, where a counting listener records any connection.
let receiver: HttpsReceiver;
let trap: CountingSocket;
let dns: TestDnsServer;
let client: OutboundClient;

beforeAll(async () => {
  receiver = await startHttpsReceiver({ host: "127.0.0.2" });
  trap = await startCountingSocket("127.0.0.1", receiver.port);
  dns = await startDnsServer((name, type, count) => {
    if (type === "AAAA") return name === "six.skiff.test" ? ["::1"] : [];
    switch (name) {
      case "hooks.acme-shop.com":
        return ["10.0.0.5"];
      case "rebind.skiff.test": // good first, then the trap
        return count === 0 ? ["127.0.0.2"] : ["127.0.0.1"];
      case "flip.skiff.test": // alternates on every query
        return count % 2 === 0 ? ["127.0.0.2"] : ["127.0.0.1"];
      case "both.skiff.test":
        return ["127.0.0.2", "127.0.0.1"];
      case "six.skiff.test":
      case "together.skiff.test":
      case "fresh.skiff.test":
        return ["127.0.0.2"];
      case "kept.skiff.test": // good first, then the trap
        return count === 0 ? ["127.0.0.2"] : ["127.0.0.1"];
      case "late.skiff.test": // no answer first, then good
        return count === 0 ? [] : ["127.0.0.2"];
      default:
        return [];
    }
  });
  // Resolving on every call (no kept resolution): each call below meets the name's next answer.
  client = createOutboundClient({
    allow: "127.0.0.2",
    clusterDomain: "svc.cluster.local",
    log: silent,
    lookup: dns.lookup,
    dnsCacheMs: 0,
  });
});

afterAll(async () => {
  await receiver?.close();
  await trap?.close();
  await dns?.close();
});

afterEach(() => {
  receiver.requests.length = 0;
});

const queriesFor = (name: string) => dns.queries.filter((q) => q.name === name && q.type === "A").length;

describe("a public-looking name answering a private address", () => {
  it("is refused at save time (checkUrl) and at call time, with nothing dialled", async () => {
    const free = await startCountingSocket();
    try {
      const url = `https://hooks.acme-shop.com:${free.port}/webhook`;
      await expect(client.checkUrl(url)).rejects.toThrow("blocked address 10.0.0.5 (private)");
      await expect(client.request({ method: "POST", url, body: "{}" })).rejects.toBeInstanceOf(OutboundBlockedError);
      expect(dns.queries.some((q) => q.name === "hooks.acme-shop.com")).toBe(true);
      expect(free.accepts()).toBe(0);
    } finally {
      await free.close();
    }
  });

  it("is refused when only one of its addresses is refused (every address is checked)", async () => {
    await expect(client.request({ url: `https://both.skiff.test:${receiver.port}/` })).rejects.toThrow(
      "blocked address 127.0.0.1 (loopback)",
    );
    await expect(client.request({ url: `https://six.skiff.test:${receiver.port}/` })).rejects.toThrow(
      "blocked address ::1 (loopback)",
    );
    expect(receiver.requests).toHaveLength(0);
    expect(trap.accepts()).toBe(0);
  });
});

describe("a rebinding name", () => {
  it("is resolved once per call and dialled at the checked address, never re-resolved at connect", async () => {
    const before = queriesFor("rebind.skiff.test");
    expect(before).toBe(0);
    const res = await client.request({
      method: "POST",
      url: `https://rebind.skiff.test:${receiver.port}/hook`,
      body: "a",
    });
    expect(res).toMatchObject({ status: 200, address: "127.0.0.2" });
    expect(queriesFor("rebind.skiff.test")).toBe(1);
    expect(receiver.requests.map((r) => r.localAddress)).toEqual(["127.0.0.2"]);
    expect(trap.accepts()).toBe(0);
  });

  it("is refused on the next call, when it answers the refused address", async () => {
    await expect(
      client.request({ method: "POST", url: `https://rebind.skiff.test:${receiver.port}/hook`, body: "b" }),
    ).rejects.toThrow("blocked address 127.0.0.1 (loopback)");
    expect(receiver.requests).toHaveLength(0);
    expect(trap.accepts()).toBe(0);
  });

  it("passing checkUrl at save time grants nothing: the call re-checks and refuses the new answer", async () => {
    const url = `https://flip.skiff.test:${receiver.port}/hook`;
    await expect(client.checkUrl(url)).resolves.toMatchObject({ addresses: [{ address: "127.0.0.2" }] });
    await expect(client.request({ url })).rejects.toThrow("blocked address 127.0.0.1 (loopback)");
    const res = await client.request({ url }); // third query: back to the good address
    expect(res.address).toBe("127.0.0.2");
    await expect(client.request({ url })).rejects.toBeInstanceOf(OutboundBlockedError);
    expect(receiver.requests).toHaveLength(1);
    expect(trap.accepts()).toBe(0);
  });
});

describe("a kept resolution (dnsCacheMs)", () => {
  const KEPT_MS = 400;
  /** Runs `test` with a client that keeps resolutions {@link KEPT_MS}, closed afterwards. */
  const withKept = async (test: (c: OutboundClient) => Promise<void>) => {
    const c = createOutboundClient({
      allow: "127.0.0.2",
      clusterDomain: "svc.cluster.local",
      log: silent,
      lookup: dns.lookup,
      dnsCacheMs: KEPT_MS,
    });
    try {
      await test(c);
    } finally {
      await c.close();
    }
  };

  it("serves the next calls until it expires; the name's next answer, refused, is then refused", async () => {
    await withKept(async (c) => {
      const url = `https://kept.skiff.test:${receiver.port}/hook`;
      for (const body of ["a", "b", "c"]) {
        await expect(c.request({ method: "POST", url, body })).resolves.toMatchObject({
          status: 200,
          address: "127.0.0.2",
        });
      }
      expect(queriesFor("kept.skiff.test")).toBe(1);
      await new Promise((r) => setTimeout(r, KEPT_MS + 100));
      await expect(c.request({ method: "POST", url, body: "d" })).rejects.toThrow(
        "blocked address 127.0.0.1 (loopback)",
      );
      expect(queriesFor("kept.skiff.test")).toBe(2);
      expect(receiver.requests.map((r) => r.body.toString())).toEqual(["a", "b", "c"]);
      expect(trap.accepts()).toBe(0);
    });
  });

  it("is one lookup for the calls that wait for it together", async () => {
    await withKept(async (c) => {
      const url = `https://together.skiff.test:${receiver.port}/hook`;
      const answers = await Promise.all([1, 2, 3, 4, 5].map((i) => c.request({ method: "POST", url, body: `${i}` })));
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
      expect(queriesFor("together.skiff.test")).toBe(1);
    });
  });

  it("is not made of a failed resolution: the next call asks again", async () => {
    await withKept(async (c) => {
      const url = `https://late.skiff.test:${receiver.port}/hook`;
      await expect(c.request({ url })).rejects.toMatchObject({ name: "OutboundConnectionError", code: "ENODATA" });
      await expect(c.request({ url })).resolves.toMatchObject({ status: 200, address: "127.0.0.2" });
      expect(queriesFor("late.skiff.test")).toBe(2);
    });
  });

  it("is not read by a save-time check (checkUrl), which always resolves afresh", async () => {
    await withKept(async (c) => {
      const url = `https://fresh.skiff.test:${receiver.port}/hook`;
      await c.request({ url });
      await c.checkUrl(url);
      await c.checkUrl(url);
      expect(queriesFor("fresh.skiff.test")).toBe(3);
      await c.request({ url });
      expect(queriesFor("fresh.skiff.test")).toBe(3);
    });
  });
});
