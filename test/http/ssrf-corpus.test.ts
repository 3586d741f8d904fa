/**
 * Every refused URL form (v4 and v6 literals, numeric host forms, embedded IPv4, refused names, and
 * public-looking names whose DNS answer is refused) fails with OutboundBlockedError before any connection:
 * a counting listener on every local address sees 0 accepts, and no TCP client socket is even created.
 */
import diagnostics from "node:diagnostics_channel";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOutboundClient, type OutboundClient } from "../../src/http/outbound-client.ts";
import { OutboundBlockedError } from "../../src/http/outbound-errors.ts";
import { type CountingSocket, startCountingSocket } from "../helpers/counting-socket.ts";
import { startDnsServer, type TestDnsServer } from "../helpers/dns-server.ts";

const silent = { warn() {}, debug() {} };

/** Public-looking names and what the test DNS server answers for them. */
const ZONE: Record<string, { A?: string[]; AAAA?: string[] }> = {
  "hooks.acme-shop.com": { A: ["10.0.0.5"] },
  "loopback.acme-shop.com": { A: ["127.0.0.1"] },
  "metadata.acme-shop.com": { A: ["169.254.169.254"] },
  "cgnat.acme-shop.com": { A: ["100.64.12.34"] },
  "v6-loopback.acme-shop.com": { AAAA: ["::1"] },
  "v6-ula.acme-shop.com": { AAAA: ["fd00::5"] },
  "v6-mapped.acme-shop.com": { AAAA: ["::ffff:127.0.0.1"] },
  "v6-nat64.acme-shop.com": { AAAA: ["64:ff9b::a9fe:a9fe"] },
  "mixed.acme-shop.com": { A: ["93.184.216.34", "192.168.0.10"] },
  "mixed-families.acme-shop.com": { A: ["93.184.216.34"], AAAA: ["fe80::1"] },
};

/** Every refused form; `P` is replaced by the counting listener's port. */
const CORPUS = [
  // IPv4 literals, every refused range
  "http://127.0.0.1:P/",
  "http://127.255.255.254:P/",
  "http://0.0.0.0:P/",
  "http://10.0.0.5:P/",
  "http://10.255.255.255:P/",
  "http://172.16.0.1:P/",
  "http://172.31.255.254:P/",
  "http://192.168.1.1:P/",
  "http://169.254.169.254/latest/meta-data/",
  "http://169.254.170.2:P/v2/credentials",
  "http://100.64.0.1:P/",
  "http://100.127.255.254:P/",
  "http://192.0.0.8:P/",
  "http://198.18.0.1:P/",
  "http://198.19.255.254:P/",
  "http://192.0.2.1:P/",
  "http://198.51.100.7:P/",
  "http://203.0.113.9:P/",
  "http://224.0.0.1:P/",
  "http://239.255.255.250:P/",
  "http://240.0.0.1:P/",
  "http://255.255.255.255:P/",
  "https://10.0.0.5:P/",
  // numeric host forms
  "http://2130706433:P/",
  "http://0x7f.1:P/",
  "http://0x7f000001:P/",
  "http://0x7f.0x0.0x0.0x1:P/",
  "http://127.1:P/",
  "http://127.0.1:P/",
  "http://0177.0.0.1:P/",
  "http://017700000001:P/",
  "http://127.0.0.1.:P/",
  "http://0:P/",
  "http://0xa9.0xfe.0xa9.0xfe/latest/meta-data/",
  "http://2852039166/latest/meta-data/",
  // IPv6 literals
  "http://[::1]:P/",
  "http://[0:0:0:0:0:0:0:1]:P/",
  "http://[::]:P/",
  "http://[fc00::1]:P/",
  "http://[fd12:3456:789a::1]:P/",
  "http://[fd00:ec2::254]/latest/meta-data/",
  "http://[fe80::1]:P/",
  "http://[febf:ffff::1]:P/",
  "http://[ff02::1]:P/",
  "http://[ff05::1:3]:P/",
  "http://[2001:db8::1]:P/",
  // IPv6 embedding a refused IPv4
  "http://[::ffff:127.0.0.1]:P/",
  "https://[::ffff:127.0.0.1]:P/",
  "http://[::ffff:7f00:1]:P/",
  "http://[::ffff:10.0.0.5]:P/",
  "http://[::ffff:169.254.169.254]/latest/meta-data/",
  "http://[::ffff:0:127.0.0.1]:P/",
  "http://[::127.0.0.1]:P/",
  "http://[64:ff9b::7f00:1]:P/",
  "http://[64:ff9b::10.0.0.5]:P/",
  "http://[64:ff9b::a9fe:a9fe]/latest/meta-data/",
  "http://[2002:7f00:1::1]:P/",
  "http://[2002:a00:5::]:P/",
  "http://[2002:c0a8:101::1]:P/",
  // refused host names
  "http://localhost:P/",
  "http://LOCALHOST:P/",
  "http://localhost.:P/",
  "http://api.localhost:P/",
  "http://printer.local:P/",
  "http://metadata.google.internal/computeMetadata/v1/",
  "http://billing.corp.internal:P/",
  "http://db.svc.cluster.local:P/",
  "http://app-db.default.svc.cluster.local:P/",
  "http://SVC.CLUSTER.LOCAL:P/",
  "http://intranet:P/",
  // public-looking names answering refused addresses (real DNS server)
  ...Object.keys(ZONE).map((name) => `http://${name}:P/`),
  "https://hooks.acme-shop.com:P/",
];

let counting: CountingSocket;
let dns: TestDnsServer;
let client: OutboundClient;
let sockets = 0;
let dials = 0;
const onSocket = () => {
  sockets += 1;
};
const onDial = () => {
  dials += 1;
};

beforeAll(async () => {
  counting = await startCountingSocket();
  dns = await startDnsServer((name, type) => ZONE[name]?.[type] ?? []);
  client = createOutboundClient({ allow: "", clusterDomain: "svc.cluster.local", log: silent, lookup: dns.lookup });
  diagnostics.subscribe("net.client.socket", onSocket);
  diagnostics.subscribe("undici:client:beforeConnect", onDial);
});

afterAll(async () => {
  diagnostics.unsubscribe("net.client.socket", onSocket);
  diagnostics.unsubscribe("undici:client:beforeConnect", onDial);
  await counting?.close();
  await dns?.close();
});

describe("the SSRF corpus", () => {
  it("has at least 60 URLs", () => {
    expect(new Set(CORPUS).size).toBe(CORPUS.length);
    expect(CORPUS.length).toBeGreaterThanOrEqual(60);
  });

  it.each(CORPUS)("refuses %s with no connection attempted", async (template) => {
    const url = template.replace(":P/", `:${counting.port}/`);
    const before = { sockets, dials, accepts: counting.accepts() };
    const error = await client.request({ method: "POST", url, body: "{}", timeoutMs: 3_000 }).catch((e) => e);
    expect(error).toBeInstanceOf(OutboundBlockedError);
    expect((error as OutboundBlockedError).reason).toMatch(/^blocked (address|host name) \S+ \(.+\)$/);
    await expect(client.checkUrl(url)).rejects.toBeInstanceOf(OutboundBlockedError);
    // give a stray connection time to land before counting
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect({ sockets, dials, accepts: counting.accepts() }).toEqual(before);
  });

  it("counts what it should: a dial to the listener is seen by all three counters", async () => {
    const allowed = createOutboundClient({ allow: "127.0.0.1", clusterDomain: "svc.cluster.local", log: silent });
    const before = { sockets, dials, accepts: counting.accepts() };
    await allowed.request({ url: `http://127.0.0.1:${counting.port}/`, timeoutMs: 2_000 }).catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(sockets).toBeGreaterThan(before.sockets);
    expect(dials).toBeGreaterThan(before.dials);
    expect(counting.accepts()).toBe(before.accepts + 1);
  });

  it("names the range in the reason", async () => {
    const reason = (url: string) =>
      client.checkUrl(url).then(
        () => "allowed",
        (e: OutboundBlockedError) => e.reason,
      );
    expect(await reason("http://10.0.0.5/")).toBe("blocked address 10.0.0.5 (private)");
    expect(await reason("http://169.254.169.254/")).toBe("blocked address 169.254.169.254 (link-local)");
    expect(await reason("http://[::ffff:127.0.0.1]/")).toBe(
      "blocked address ::ffff:7f00:1 (IPv4-mapped 127.0.0.1: loopback)",
    );
    expect(await reason("http://[64:ff9b::10.0.0.5]/")).toBe(
      "blocked address 64:ff9b::a00:5 (NAT64 10.0.0.5: private)",
    );
    expect(await reason("http://[2002:a00:5::]/")).toBe("blocked address 2002:a00:5:: (6to4 10.0.0.5: private)");
    expect(await reason("http://db.svc.cluster.local/")).toBe(
      "blocked host name db.svc.cluster.local (cluster-internal)",
    );
    expect(await reason("http://hooks.acme-shop.com/")).toBe("blocked address 10.0.0.5 (private)");
    expect(await reason("http://mixed.acme-shop.com/")).toBe("blocked address 192.168.0.10 (private)");
  });

  it("lets public addresses through the check (NAT64 and 6to4 of a public IPv4 included)", async () => {
    for (const url of [
      "https://93.184.216.34/",
      "https://[2606:4700:4700::1111]/",
      "https://[64:ff9b::808:808]/",
      "https://[2002:808:808::1]/",
    ]) {
      const checked = await client.checkUrl(url);
      expect(checked.addresses).toHaveLength(1);
    }
  });
});
