/**
 * `npm run bench:cluster`: 3 Skiff instances behind a round-robin HTTP proxy vs 1 instance behind the
 * same proxy, on one scratch database on the same machine. Per setup: the agent REST endpoint
 * (`GET /api/agent/projects`) and the nested project tree query (`POST /graphql`) with autocannon; webhook
 * deliveries per second (events sent through the proxy, deliveries counted at a loopback HTTPS receiver — every
 * delivery id must arrive once: lost and doubled are printed); and the p99 of `deploymentUpdated` (deployment
 * queued through the proxy → received by subscribers connected to every instance). Printed side by side.
 * Options (environment): BENCH_DURATION seconds per autocannon run (default 8), BENCH_CONNECTIONS (default 50),
 * BENCH_EVENTS webhook events per setup (default 300), BENCH_SUBSCRIBERS (default 30), BENCH_DEPLOYS (default 20).
 * On a 2-core machine the load generator, the proxy and the instances share the cores: 3 instances can only
 * show what they cost there, not what 3 machines would give.
 */

import autocannon from "autocannon";
import { createClient } from "graphql-ws";
import WebSocket from "ws";
import { createKnex, migrateLatest } from "../src/db/knex.ts";
import { startCountingReceiver } from "../test/helpers/counting-receiver.ts";
import { startRoundRobinProxy } from "../test/helpers/round-robin-proxy.ts";
import { createAgentTokenFor, createOrg, createProjects, TEST_SECRET } from "../test/helpers/seed.ts";
import { createTestCa, removeTestCa } from "../test/helpers/test-ca.ts";
import { type BenchServer, scratchDatabase, startServerProcess } from "./harness.ts";

const DURATION = Number(process.env.BENCH_DURATION ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const EVENTS = Number(process.env.BENCH_EVENTS ?? 300);
const SUBSCRIBERS = Number(process.env.BENCH_SUBSCRIBERS ?? 30);
const DEPLOYS = Number(process.env.BENCH_DEPLOYS ?? 20);
const PROJECTS = 50;

const TREE = `query Tree { projects(first: 100) { edges { node { id name
  environments { id name applications { id name appName applicationStatus
    deployments(first: 3) { id status title createdAt } domains { host port https } } } } } } }`;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]! : Number.NaN;
};

interface Figures {
  agentRps: number;
  agentP99: number;
  treeRps: number;
  treeP99: number;
  non2xx: number;
  webhooksPerSecond: number;
  webhooksLost: number;
  webhooksDoubled: number;
  subscriptionP50: number;
  subscriptionP99: number;
  subscriptionSamples: number;
}

async function main(): Promise<void> {
  const db = await scratchDatabase();
  const ca = await createTestCa();
  const receiver = await startCountingReceiver(ca);
  const { seen } = receiver;
  const receiverUrl = receiver.url;
  try {
    const knex = createKnex(db.url);
    await migrateLatest(knex);
    const org = await createOrg(knex);
    await createProjects(knex, org.organizationId, PROJECTS, { environments: 2, applicationsPerEnvironment: 2 });
    const token = await createAgentTokenFor(knex, org.organizationId, org.owner);
    const { rows } = await knex.raw(
      "select a.id, o.database_id from applications a join projects p on p.id = a.project_id " +
        "join organizations o on o.id = p.organization_id where o.id = ? limit 1",
      [org.organizationId],
    );
    const applicationId = rows[0].id as string;
    const databaseId = rows[0].database_id as number;
    await knex.destroy();
    const apiKey = org.owner.apiKey;
    const env = {
      SKIFF_AGENT_RATE_LIMIT: "1000000000",
      SKIFF_OUTBOUND_ALLOW: "127.0.0.1",
      NODE_EXTRA_CA_CERTS: ca.caFile,
      SKIFF_HEALTH_INTERVAL: "0",
      SKIFF_GATEWAY_URL: "https://gateway.skiff.test",
      SKIFF_DB_POOL_MAX: "10",
      SKIFF_AUTH_POOL_MAX: "4",
    };
    let webhookCreated = false;

    const run = async (instances: number): Promise<Figures> => {
      const servers: BenchServer[] = [];
      for (let i = 0; i < instances; i++) servers.push(await startServerProcess(db.url, env, TEST_SECRET));
      const proxy = await startRoundRobinProxy(
        servers.map((s) => s.url),
        { keepAlive: true },
      );
      try {
        const auth = { authorization: `Bearer ${apiKey}`, "content-type": "application/json" };
        if (!webhookCreated) {
          const hook = await fetch(`${proxy.url}/api/v1/orgs/${databaseId}/webhooks`, {
            method: "POST",
            headers: auth,
            body: JSON.stringify({ url: receiverUrl, events: ["course_completed"] }),
          });
          if (hook.status !== 201) throw new Error(`webhook not created: ${hook.status} ${await hook.text()}`);
          webhookCreated = true;
        }
        // Agent REST and the tree query (a short warm-up each).
        const agentOpts = { url: `${proxy.url}/api/agent/projects`, headers: { "x-api-key": token } };
        await autocannon({ ...agentOpts, connections: CONNECTIONS, duration: 2 });
        const agent = await autocannon({ ...agentOpts, connections: CONNECTIONS, duration: DURATION });
        const treeOpts = {
          url: `${proxy.url}/graphql`,
          method: "POST" as const,
          headers: auth,
          body: JSON.stringify({ query: TREE }),
        };
        await autocannon({ ...treeOpts, connections: CONNECTIONS, duration: 2 });
        const tree = await autocannon({ ...treeOpts, connections: CONNECTIONS, duration: DURATION });
        await sleep(2000);

        // Webhook deliveries: EVENTS events through the proxy, 20 at a time; until the receiver has them all.
        const accepted = new Set<string>();
        const started = performance.now();
        let lastAt = started;
        receiver.onDelivery = () => {
          lastAt = performance.now();
        };
        for (let i = 0; i < EVENTS; i += 20) {
          await Promise.all(
            Array.from({ length: Math.min(20, EVENTS - i) }, async (_, j) => {
              const n = `${instances}-${i + j}`;
              const res = await fetch(`${proxy.url}/api/v1/orgs/${databaseId}/events`, {
                method: "POST",
                headers: auth,
                body: JSON.stringify({
                  event: "course_completed",
                  data: {
                    user: { user_uuid: `u${n}`, email: `u${n}@skiff.test`, username: `u${n}` },
                    course: { course_uuid: `c${n}`, name: "Bench" },
                  },
                }),
              });
              if (res.status !== 202) throw new Error(`event refused: ${res.status} ${await res.text()}`);
              for (const d of ((await res.json()) as { deliveries: Array<{ delivery_id: string }> }).deliveries)
                accepted.add(d.delivery_id);
            }),
          );
        }
        for (const by = Date.now() + 120_000; [...accepted].some((id) => !seen.has(id)) && Date.now() < by; ) {
          await sleep(50);
        }
        await sleep(1000);
        const delivered = [...accepted].filter((id) => seen.has(id)).length;
        const webhooksPerSecond = delivered / ((lastAt - started) / 1000);

        // Subscriptions: SUBSCRIBERS clients spread over the instances, DEPLOYS deployments through the proxy.
        const samples: number[] = [];
        const sentAt = new Map<string, number>();
        const firstSeen = new Map<string, Set<number>>();
        const pending: Array<{ id: string; at: number; sub: number }> = [];
        const clients = Array.from({ length: SUBSCRIBERS }, (_, i) =>
          createClient({
            url: `${servers[i % servers.length]!.url.replace("http", "ws")}/graphql`,
            webSocketImpl: WebSocket,
            connectionParams: { authorization: `Bearer ${apiKey}` },
          }),
        );
        const subscribeOne = (client: (typeof clients)[number], i: number) =>
          new Promise<void>((resolve, reject) => {
            const timer = setTimeout(() => reject(new Error(`subscriber ${i} did not connect`)), 15_000);
            client.subscribe(
              {
                query: "subscription($a: ID!) { deploymentUpdated(applicationId: $a) { deploymentId status } }",
                variables: { a: applicationId },
              },
              {
                next: (m) => {
                  const id = (m.data as { deploymentUpdated?: { deploymentId: string } })?.deploymentUpdated
                    ?.deploymentId;
                  if (!id) return;
                  const subs = firstSeen.get(id) ?? new Set<number>();
                  if (subs.has(i)) return;
                  subs.add(i);
                  firstSeen.set(id, subs);
                  pending.push({ id, at: performance.now(), sub: i });
                },
                error: () => {},
                complete: () => {},
              },
            );
            client.on("connected", () => {
              clearTimeout(timer);
              resolve();
            });
          });
        // In groups of 10: an address may hold 20 sockets not yet authenticated per instance (more answer 429).
        for (let i = 0; i < clients.length; i += 10) {
          await Promise.all(clients.slice(i, i + 10).map((client, j) => subscribeOne(client, i + j)));
        }
        await sleep(500);
        for (let i = 0; i < DEPLOYS; i++) {
          const t0 = performance.now();
          const res = await fetch(`${proxy.url}/graphql`, {
            method: "POST",
            headers: auth,
            body: JSON.stringify({
              query: "mutation($a: ID!) { deployApplication(applicationId: $a) { id } }",
              variables: { a: applicationId },
            }),
          });
          const body = (await res.json()) as { data?: { deployApplication: { id: string } } };
          if (body.data) sentAt.set(body.data.deployApplication.id, t0);
          await sleep(100);
        }
        await sleep(2000);
        for (const p of pending) {
          const t0 = sentAt.get(p.id);
          if (t0 !== undefined) samples.push(p.at - t0);
        }
        await Promise.all(clients.map((c) => c.dispose()));

        return {
          agentRps: agent.requests.average,
          agentP99: agent.latency.p99,
          treeRps: tree.requests.average,
          treeP99: tree.latency.p99,
          non2xx: agent.non2xx + tree.non2xx,
          webhooksPerSecond,
          webhooksLost: accepted.size - delivered,
          webhooksDoubled: [...accepted].filter((id) => (seen.get(id) ?? 0) > 1).length,
          subscriptionP50: percentile(samples, 50),
          subscriptionP99: percentile(samples, 99),
          subscriptionSamples: samples.length,
        };
      } finally {
        await proxy.close();
        await Promise.all(servers.map((s) => s.stop()));
      }
    };

    const one = await run(1);
    const three = await run(3);
    const rowsOut: Array<[string, (f: Figures) => string]> = [
      ["agent REST req/s", (f) => f.agentRps.toFixed(0)],
      ["agent REST p99 ms", (f) => String(f.agentP99)],
      ["tree query req/s", (f) => f.treeRps.toFixed(0)],
      ["tree query p99 ms", (f) => String(f.treeP99)],
      ["non-2xx answers", (f) => String(f.non2xx)],
      ["webhook deliveries/s", (f) => f.webhooksPerSecond.toFixed(0)],
      ["webhooks lost / doubled", (f) => `${f.webhooksLost} / ${f.webhooksDoubled}`],
      ["subscription p50 ms", (f) => f.subscriptionP50.toFixed(1)],
      ["subscription p99 ms", (f) => f.subscriptionP99.toFixed(1)],
      ["subscription samples", (f) => String(f.subscriptionSamples)],
    ];
    console.log(
      `\nbench:cluster — ${CONNECTIONS} connections, ${DURATION} s per run, ${EVENTS} webhook events, ` +
        `${SUBSCRIBERS} subscribers × ${DEPLOYS} deployments, ${db.label}, ${PROJECTS} projects\n`,
    );
    console.log(`${"".padEnd(26)}${"1 instance".padStart(14)}${"3 instances".padStart(14)}`);
    for (const [label, get] of rowsOut)
      console.log(`${label.padEnd(26)}${get(one).padStart(14)}${get(three).padStart(14)}`);
    console.log(JSON.stringify({ one, three }));
  } finally {
    await receiver.close();
    await removeTestCa(ca);
    await db.drop();
  }
}

await main();
