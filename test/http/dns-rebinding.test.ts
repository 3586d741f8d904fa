/**
 * Against a real DNS server (dns2 on loopback UDP): a public-looking name that answers a private
 * address is refused; a name whose answer changes between lookups (DNS rebinding) cannot move a call to an
 * unchecked address, because the client resolves once and dials only what it checked.
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
        return ["127.0.0.2"];
      default:
        return [];
    }
  });
  client = createOutboundClient({
    allow: "127.0.0.2",
    clusterDomain: "svc.cluster.local",
    log: silent,
    lookup: dns.lookup,
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
