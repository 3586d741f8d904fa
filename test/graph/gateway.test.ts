/**
 * Federation in practice: Skiff and a second small subgraph (billing, extending `Organization` by key and
 * pointing back at it) behind a real JavaScript gateway, Hive Gateway's runtime (`@graphql-hive/gateway-runtime`,
 * HTTP transport, graphql-ws transport for subscriptions), over a supergraph composed by `@apollo/composition` from
 * the SDL Skiff serves at `_service`. All three are real HTTP servers on loopback. Through the gateway: the nested
 * project tree (same answer as Skiff direct), `Organization` resolved across both subgraphs in both directions, the
 * caller's credentials forwarded (HTTP header to both subgraphs, `connection_init` payload to Skiff's graphql-ws),
 * refusals kept (no credentials: UNAUTHENTICATED; another organization: NOT_FOUND), and `siteImportUpdated` as a
 * subscription (client ↔ gateway over SSE, gateway ↔ Skiff over graphql-ws).
 */
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { composeServices } from "@apollo/composition";
import { ApolloServer } from "@apollo/server";
import { startStandaloneServer } from "@apollo/server/standalone";
import { buildSubgraphSchema } from "@apollo/subgraph";
import { parse } from "graphql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningSkiff } from "../../src/server/start.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { createOrg, createProjects, type SeededUser } from "../helpers/seed.ts";
import { gql, startTestServer } from "../helpers/server.ts";
import { dockerRequest, rest } from "../site-imports/import-helpers.ts";

/**
 * Hive Gateway's packages are loaded through non-literal specifiers, so TypeScript does not pull their declarations
 * into the program: they augment `graphql`'s `GraphQLErrorExtensions` and the global fetch types in ways that
 * conflict with Apollo Server's (the runtime is unaffected). The small interface below is what the test uses.
 */
const HIVE_RUNTIME: string = "@graphql-hive/gateway-runtime";
const TRANSPORT_HTTP: string = "@graphql-mesh/transport-http";
const TRANSPORT_WS: string = "@graphql-mesh/transport-ws";

/** The part of Hive Gateway's runtime the test uses: a Node request listener that can be disposed. */
interface GatewayRuntime {
  (req: import("node:http").IncomingMessage, res: import("node:http").ServerResponse): void;
  dispose(): Promise<void>;
}

/** The billing subgraph: a balance per organization, and invoices that point back at Skiff's `Organization`. */
const BILLING_SDL = `
  extend schema @link(url: "https://specs.apollo.dev/federation/v2.3", import: ["@key"])
  "An organization as billing knows it (resolved by key from Skiff)."
  type Organization @key(fields: "id") {
    id: ID!
    "Open balance in cents."
    balanceCents: Int!
  }
  "One invoice."
  type Invoice {
    id: ID!
    amountCents: Int!
    "Null when the caller cannot see the organization (Skiff resolves it as the caller)."
    organization: Organization
  }
  type Query {
    "Invoices of the caller's organizations (the test keeps one list)."
    invoices: [Invoice!]!
  }
`;

let db: TestDatabase;
let skiff: RunningSkiff;
let billing: { url: string; stop: () => Promise<void>; headers: IncomingHttpHeaders[] };
let gateway: GatewayRuntime;
let gatewayServer: Server;
let gatewayUrl: string;
let mine: { organizationId: string; owner: SeededUser };
let theirs: { organizationId: string; owner: SeededUser };

/** Starts the billing subgraph (Apollo Server + @apollo/subgraph) on a free loopback port, recording request headers. */
async function startBilling(invoiceOrgs: () => string[]) {
  const headers: IncomingHttpHeaders[] = [];
  const server = new ApolloServer({
    schema: buildSubgraphSchema({
      typeDefs: parse(BILLING_SDL),
      resolvers: {
        Query: {
          invoices: () =>
            invoiceOrgs().map((id, i) => ({ id: `inv_${i}`, amountCents: 1000 * (i + 1), organization: { id } })),
        },
        Organization: {
          __resolveReference: (ref: { id: string }) => ({ id: ref.id, balanceCents: ref.id.length * 100 }),
        },
      },
    }),
  });
  const { url } = await startStandaloneServer(server, {
    listen: { port: 0, host: "127.0.0.1" },
    context: async ({ req }) => {
      headers.push(req.headers);
      return {};
    },
  });
  return { url: url.replace(/\/$/, ""), stop: () => server.stop(), headers };
}

/** POSTs `query` to the gateway with the caller's API key (if any). */
async function viaGateway<T>(query: string, variables: Record<string, unknown> = {}, apiKey?: string) {
  const res = await fetch(`${gatewayUrl}/graphql`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/graphql-response+json, application/json",
      ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
    },
    body: JSON.stringify({ query, variables }),
  });
  return (await res.json()) as { data?: T; errors?: Array<{ message: string; extensions?: Record<string, unknown> }> };
}

beforeAll(async () => {
  db = await createTestDatabase();
  skiff = await startTestServer(db.url);
  mine = await createOrg(db.knex);
  theirs = await createOrg(db.knex);
  await createProjects(db.knex, mine.organizationId, 2, {
    environments: 2,
    applicationsPerEnvironment: 2,
    deploymentsPerApplication: 2,
    domainsPerApplication: 1,
  });
  billing = await startBilling(() => [mine.organizationId, theirs.organizationId]);

  // The supergraph, composed from what each subgraph serves.
  const skiffSdl = (await gql<{ _service: { sdl: string } }>(skiff.url, "{ _service { sdl } }")).data!._service.sdl;
  const composed = composeServices([
    { name: "skiff", typeDefs: parse(skiffSdl), url: `${skiff.url}/graphql` },
    { name: "billing", typeDefs: parse(BILLING_SDL), url: `${billing.url}/` },
  ]);
  expect(composed.errors ?? []).toEqual([]);

  const { createGatewayRuntime } = (await import(HIVE_RUNTIME)) as {
    createGatewayRuntime(options: Record<string, unknown>): GatewayRuntime;
  };
  gateway = createGatewayRuntime({
    supergraph: composed.supergraphSdl!,
    logging: false,
    transports: {
      http: import(TRANSPORT_HTTP),
      ws: import(TRANSPORT_WS),
    },
    // Subscriptions to Skiff over graphql-ws, authenticated like Skiff's own clients: in `connection_init`.
    transportEntries: {
      skiff: {
        options: {
          subscriptions: {
            kind: "ws",
            location: `${skiff.url}/graphql`,
            options: { connectionParams: { authorization: "{context.headers.authorization}" } },
          },
        },
      },
    },
    // The caller's credential to every subgraph (Skiff: API key or session cookie).
    propagateHeaders: {
      fromClientToSubgraphs: ({ request }: { request: Request }) => ({
        authorization: request.headers.get("authorization"),
        cookie: request.headers.get("cookie"),
      }),
    },
  });
  gatewayServer = createServer(gateway);
  await new Promise<void>((resolve) => gatewayServer.listen(0, "127.0.0.1", resolve));
  gatewayUrl = `http://127.0.0.1:${(gatewayServer.address() as AddressInfo).port}`;
}, 120_000);

afterAll(async () => {
  gatewayServer?.closeAllConnections();
  await new Promise<void>((resolve) => (gatewayServer ? gatewayServer.close(() => resolve()) : resolve()));
  await gateway?.dispose();
  await billing?.stop();
  await skiff?.stop();
  await db?.drop();
});

const TREE = `query { projects(first: 10) { totalCount edges { node { id name environments { id name
  applications { id name appName domains { host } deployments(first: 1) { id status title } } } } } } }`;

describe("Skiff behind Hive Gateway", () => {
  it("runs the nested project tree through the gateway with the same answer as Skiff direct", async () => {
    const through = await viaGateway<{ projects: { totalCount: number; edges: unknown[] } }>(
      TREE,
      {},
      mine.owner.apiKey,
    );
    expect(through.errors).toBeUndefined();
    const direct = await gql(skiff.url, TREE, {}, { apiKey: mine.owner.apiKey });
    expect(through.data).toEqual(direct.data);
    expect(through.data!.projects.totalCount).toBe(2);
    const apps = JSON.stringify(through.data).match(/"appName"/g) ?? [];
    expect(apps.length).toBe(8);
  });

  it("resolves Organization across both subgraphs, both ways, with the caller's credential forwarded", async () => {
    const before = billing.headers.length;
    const org = await viaGateway<{ organization: { id: string; name: string; balanceCents: number } }>(
      "query($id: ID!) { organization(id: $id) { id name plan { name } balanceCents } }",
      { id: mine.organizationId },
      mine.owner.apiKey,
    );
    expect(org.errors).toBeUndefined();
    expect(org.data!.organization).toMatchObject({
      id: mine.organizationId,
      balanceCents: mine.organizationId.length * 100,
      plan: { name: "unlimited" },
    });
    // Billing saw the caller's header: the gateway forwards it to every subgraph.
    expect(billing.headers.slice(before).some((h) => h.authorization === `Bearer ${mine.owner.apiKey}`)).toBe(true);

    // Billing → Skiff: `_entities` on Skiff runs as the caller: the own organization is completed from Skiff,
    // another organization's stays invisible (Skiff answers null for it, so the invoice's organization is null).
    const invoices = await viaGateway<{
      invoices: Array<{ id: string; organization: { id: string; name: string; slug: string } | null }>;
    }>("{ invoices { id amountCents organization { id name slug } } }", {}, mine.owner.apiKey);
    const [own, foreign] = invoices.data?.invoices ?? [];
    const [row] = await db.knex("organizations").where({ id: mine.organizationId }).select("name", "slug");
    expect(own?.organization).toEqual({ id: mine.organizationId, name: row.name, slug: row.slug });
    expect(foreign?.id).toBe("inv_1");
    expect(foreign?.organization).toBeNull();
    expect(invoices.errors?.map((e) => e.extensions?.code)).toEqual(["INTERNAL_SERVER_ERROR"]);
    expect(JSON.stringify(invoices)).not.toContain(theirs.organizationId);
  });

  it("keeps Skiff's refusals: no credential → UNAUTHENTICATED, another organization → NOT_FOUND", async () => {
    const anonymous = await viaGateway("{ viewer { user { id } } }");
    expect(anonymous.errors?.[0]?.extensions?.code).toBe("UNAUTHENTICATED");
    const foreign = await viaGateway(
      "query($id: ID!) { organization(id: $id) { id name } }",
      { id: theirs.organizationId },
      mine.owner.apiKey,
    );
    expect(foreign.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
    const viewer = await viaGateway<{ viewer: { user: { email: string } } }>(
      "{ viewer { user { email } } }",
      {},
      mine.owner.apiKey,
    );
    expect(viewer.data?.viewer.user.email).toBe(mine.owner.email);
  });

  it("streams siteImportUpdated through the gateway (SSE to the client, graphql-ws to Skiff, key in connection_init)", {
    timeout: 60_000,
  }, async () => {
    const controller = new AbortController();
    const res = await fetch(`${gatewayUrl}/graphql`, {
      method: "POST",
      signal: controller.signal,
      headers: {
        "content-type": "application/json",
        accept: "text/event-stream",
        authorization: `Bearer ${mine.owner.apiKey}`,
      },
      body: JSON.stringify({ query: "subscription { siteImportUpdated { importId status siteImport { name } } }" }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    const reader = res.body!.getReader();
    const events: Array<{ data?: { siteImportUpdated: { importId: string; status: string } }; errors?: unknown[] }> =
      [];
    let buffer = "";
    const readUntil = async (count: number) => {
      const deadline = Date.now() + 20_000;
      while (events.length < count && Date.now() < deadline) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += new TextDecoder().decode(value);
        let end = buffer.indexOf("\n\n");
        while (end >= 0) {
          const chunk = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = chunk
            .split("\n")
            .filter((l) => l.startsWith("data:"))
            .map((l) => l.slice(5).trim())
            .join("\n");
          if (data) events.push(JSON.parse(data));
          end = buffer.indexOf("\n\n");
        }
      }
    };
    // Wait until the gateway's graphql-ws subscription reached Skiff, then start an import there.
    for (let i = 0; i < 200 && skiff.services.pubsub.listenerCount("site_import.updated") < 1; i++)
      await new Promise((r) => setTimeout(r, 25));
    expect(skiff.services.pubsub.listenerCount("site_import.updated")).toBeGreaterThanOrEqual(1);
    const started = await rest<{ importId: string; status: string }>(
      skiff.url,
      "POST",
      "/api/site-import",
      { apiKey: mine.owner.apiKey },
      dockerRequest(mine.organizationId, { name: "through-gateway" }),
    );
    expect(started.body.status).toBe("failed"); // no container registry: the run ends at once
    await readUntil(2);
    controller.abort();
    expect(events.flatMap((e) => e.errors ?? [])).toEqual([]);
    expect(events.map((e) => e.data?.siteImportUpdated.status)).toEqual(["pending", "failed"]);
    for (const e of events) expect(e.data?.siteImportUpdated.importId).toBe(started.body.importId);
  });

  it("a subscription without credentials gets nothing: Skiff refuses the gateway's graphql-ws connection", {
    timeout: 30_000,
  }, async () => {
    // The previous test's stream ends once its client went away.
    for (let i = 0; i < 200 && skiff.services.pubsub.listenerCount("site_import.updated") > 0; i++)
      await new Promise((r) => setTimeout(r, 25));
    const listeners = skiff.services.pubsub.listenerCount("site_import.updated");
    expect(listeners).toBe(0);
    const controller = new AbortController();
    const res = await fetch(`${gatewayUrl}/graphql`, {
      method: "POST",
      signal: controller.signal,
      headers: { "content-type": "application/json", accept: "text/event-stream" },
      body: JSON.stringify({ query: "subscription { siteImportUpdated { importId status } }" }),
    });
    expect(res.status).toBe(200);
    // Skiff closes the anonymous connection at `connection_init` (4403): no listener is added, and an import
    // started meanwhile reaches no one. (graphql-ws in the gateway retries 4403 with back-off; see docs/graphql.md.)
    const reader = res.body!.getReader();
    let text = "";
    const reading = (async () => {
      for (;;) {
        const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
        if (done) return;
        text += new TextDecoder().decode(value);
      }
    })();
    await new Promise((r) => setTimeout(r, 1_000));
    expect(skiff.services.pubsub.listenerCount("site_import.updated")).toBe(listeners);
    const started = await rest<{ importId: string }>(
      skiff.url,
      "POST",
      "/api/site-import",
      { apiKey: mine.owner.apiKey },
      dockerRequest(mine.organizationId, { name: "anonymous-watch" }),
    );
    expect(started.body.importId).toMatch(/^imp_/);
    await new Promise((r) => setTimeout(r, 2_000));
    controller.abort();
    await reading;
    expect(text).not.toContain(started.body.importId);
    expect(text).not.toContain('"siteImportUpdated":{');
  });
});
