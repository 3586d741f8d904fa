/**
 * A real DNS server on loopback UDP (dns2) answering CNAME questions from a mutable map, for the docs host's
 * CNAME check (SKIFF_DOCS_DNS_SERVERS=127.0.0.1:<port>). Names not in the map answer with no records (NODATA).
 */
import { createServer, Packet, type Resource } from "dns2";

/** A running CNAME server: `records` maps a lower-case name to its CNAME target; `asked` lists questions seen. */
export interface CnameServer {
  port: number;
  records: Map<string, string>;
  asked: string[];
  close(): Promise<void>;
}

/** Starts the server on 127.0.0.1 (random port). */
export async function startCnameServer(): Promise<CnameServer> {
  const records = new Map<string, string>();
  const asked: string[] = [];
  const server = createServer({
    udp: true,
    handle: (request, send) => {
      const response = Packet.createResponseFromRequest(request);
      const [question] = request.questions;
      const name = question.name.replace(/\.$/, "").toLowerCase();
      asked.push(name);
      const target = records.get(name);
      if (question.type === Packet.TYPE.CNAME && target) {
        response.answers.push({
          name: question.name,
          type: Packet.TYPE.CNAME,
          class: Packet.CLASS.IN,
          ttl: 0,
          domain: target,
        } as Resource);
      }
      void send(response);
    },
  });
  const addresses = await server.listen({ udp: { port: 0, address: "127.0.0.1" } });
  return { port: addresses.udp!.port, records, asked, close: () => server.close() };
}
