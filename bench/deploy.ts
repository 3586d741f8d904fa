/**
 * Benchmark of the deploy trigger URL (`npm run bench:deploy`): seeds 50 docker applications with deploy tokens
 * on a scratch database, starts Skiff in its own process (bench/harness.ts) with the per-token rate limit raised
 * (SKIFF_DEPLOY_RATE_LIMIT), then
 *  1. drives `POST /api/deploy/<token>` (tokens in rotation) with autocannon at 50 concurrent connections and
 *     prints requests per second and p50/p99 latency (ms);
 *  2. after the queue has settled, triggers one deployment at a time (BENCH_SAMPLES, default 50, 100 ms apart)
 *     and prints trigger → `running` p50/p99 (ms): `started_at − created_at` as the database recorded them.
 * Options (environment): BENCH_DURATION seconds (default 10), BENCH_CONNECTIONS (default 50).
 */
import autocannon, { type Request } from "autocannon";
import { createKnex, migrateLatest } from "../src/db/knex.ts";
import { createSecretBox } from "../src/db/secrets.ts";
import { deployTokenHash, newDeployToken } from "../src/modules/deployments/deploy-token.ts";
import { createOrg, createProjects, TEST_SECRET } from "../test/helpers/seed.ts";
import { scratchDatabase, startServerProcess } from "./harness.ts";

const APPS = 50;
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 50);

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function main(): Promise<void> {
  const db = await scratchDatabase();
  try {
    const knex = createKnex(db.url);
    await migrateLatest(knex);
    const box = createSecretBox(TEST_SECRET);
    const org = await createOrg(knex);
    await createProjects(knex, org.organizationId, APPS, { applicationsPerEnvironment: 1 });
    const apps = (await knex("applications").where({ organization_id: org.organizationId }).select("id")) as Array<{
      id: string;
    }>;
    const tokens: string[] = [];
    for (const { id } of apps) {
      const token = newDeployToken();
      await knex("applications")
        .where({ id })
        .update({ deploy_token_hash: deployTokenHash(token), deploy_token_encrypted: box.encrypt(token) });
      tokens.push(token);
    }

    const skiff = await startServerProcess(db.url, { SKIFF_DEPLOY_RATE_LIMIT: "1000000000" }, TEST_SECRET);
    try {
      const probe = await fetch(`${skiff.url}/api/deploy/${tokens[0]}`, { method: "POST" });
      if (probe.status !== 202) throw new Error(`unexpected probe answer ${probe.status}`);
      let next = 0;
      const options = {
        url: skiff.url,
        connections: CONNECTIONS,
        requests: [
          {
            method: "POST" as const,
            setupRequest: (req: Request) => ({ ...req, path: `/api/deploy/${tokens[next++ % tokens.length]}` }),
          },
        ],
      };
      await autocannon({ ...options, duration: 2 });
      const result = await autocannon({ ...options, duration: DURATION });
      await new Promise((resolve) => setTimeout(resolve, 3000));
      console.log(
        `POST /api/deploy/<token> (${APPS} applications, ${CONNECTIONS} connections, ${DURATION} s): ` +
          `${result.requests.average} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms ` +
          `(${result.requests.total} requests, ${result.non2xx} non-2xx, ${result.errors} errors)`,
      );

      // Let the worker finish what the load queued (superseded rows are cancelled; one runs per application).
      for (let i = 0; i < 600; i++) {
        const { rows } = await knex.raw(
          "select count(*)::int as n from deployments where status in ('queued', 'running')",
        );
        if (rows[0].n === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
      const sampleIds: string[] = [];
      for (let i = 0; i < SAMPLES; i++) {
        const res = await fetch(`${skiff.url}/api/deploy/${tokens[i % tokens.length]}`, { method: "POST" });
        sampleIds.push(((await res.json()) as { deploymentId: string }).deploymentId);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      for (let i = 0; i < 200; i++) {
        const { rows } = await knex.raw(
          "select count(*)::int as n from deployments where id = any(?) and started_at is null",
          [sampleIds],
        );
        if (rows[0].n === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const { rows } = await knex.raw(
        "select extract(epoch from (started_at - created_at)) * 1000 as ms from deployments where id = any(?) and started_at is not null",
        [sampleIds],
      );
      const ms = (rows as Array<{ ms: string }>).map((r) => Number(r.ms)).sort((a, b) => a - b);
      const figures = {
        endpoint: "POST /api/deploy/<token>",
        applications: APPS,
        connections: CONNECTIONS,
        durationSeconds: DURATION,
        database: db.label,
        requestsPerSecond: result.requests.average,
        latencyP50Ms: result.latency.p50,
        latencyP99Ms: result.latency.p99,
        non2xx: result.non2xx,
        triggerToRunningSamples: ms.length,
        triggerToRunningP50Ms: Math.round(percentile(ms, 50)),
        triggerToRunningP99Ms: Math.round(percentile(ms, 99)),
      };
      console.log(
        `trigger → running (${ms.length} samples): p50 ${figures.triggerToRunningP50Ms} ms, p99 ${figures.triggerToRunningP99Ms} ms`,
      );
      console.log(JSON.stringify(figures));
    } finally {
      await skiff.stop();
      await knex.destroy();
    }
  } finally {
    await db.drop();
  }
}

await main();
