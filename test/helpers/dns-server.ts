/**
 * A real DNS server on loopback UDP (dns2) with a programmable zone, and a resolver function that asks only it,
 * for the outbound client's `lookup` option: tests make public-looking names answer private addresses, or answer
 * differently on each query (DNS rebinding), without touching the system resolver.
 */
import { Resolver } from "node:dns/promises";
import { createServer, Packet, type Resource } from "dns2";
import type { LookupFn, ResolvedAddress } from "../../src/http/outbound-client.ts";

/** A question the server received (`name` without trailing dot, `type` `A` or `AAAA`). */
export interface DnsQuery {
  name: string;
  type: "A" | "AAAA";
}

/**
 * The zone: addresses to answer for `name` and record type; `count` is how many queries of that name and type
 * came before this one (0 for the first), so answers can change between lookups. Empty: no records.
 */
export type Zone = (name: string, type: "A" | "AAAA", count: number) => string[];

/** A running DNS server. */
export interface TestDnsServer {
  port: number;
  /** Every A/AAAA question so far, in order. */
  queries: DnsQuery[];
  /** Resolves through this server only (A and AAAA in parallel), like `dns.lookup(name, { all: true })`. */
  lookup: LookupFn;
  close(): Promise<void>;
}

/** Starts the server on 127.0.0.1 (free UDP port) answering from `zone`. */
export async function startDnsServer(zone: Zone): Promise<TestDnsServer> {
  const queries: DnsQuery[] = [];
  const server = createServer({
    udp: true,
    handle: (request, send) => {
      const response = Packet.createResponseFromRequest(request);
      const [question] = request.questions;
      const type = question.type === Packet.TYPE.AAAA ? "AAAA" : question.type === Packet.TYPE.A ? "A" : null;
      if (type) {
        const name = question.name.replace(/\.$/, "").toLowerCase();
        const count = queries.filter((q) => q.name === name && q.type === type).length;
        queries.push({ name, type });
        for (const address of zone(name, type, count)) {
          response.answers.push({
            name: question.name,
            type: Packet.TYPE[type],
            class: Packet.CLASS.IN,
            ttl: 0,
            address,
          } as Resource);
        }
      }
      void send(response);
    },
  });
  const addresses = await server.listen({ udp: { port: 0, address: "127.0.0.1" } });
  const port = addresses.udp!.port;
  const resolver = new Resolver({ timeout: 2_000, tries: 1 });
  resolver.setServers([`127.0.0.1:${port}`]);

  const lookup: LookupFn = async (hostname) => {
    const [v4, v6] = await Promise.allSettled([resolver.resolve4(hostname), resolver.resolve6(hostname)]);
    const found: ResolvedAddress[] = [
      ...(v4.status === "fulfilled" ? v4.value.map((address) => ({ address, family: 4 })) : []),
      ...(v6.status === "fulfilled" ? v6.value.map((address) => ({ address, family: 6 })) : []),
    ];
    if (found.length) return found;
    throw v4.status === "rejected"
      ? v4.reason
      : Object.assign(new Error(`no records for ${hostname}`), { code: "ENOTFOUND" });
  };

  return { port, queries, lookup, close: () => server.close() };
}
