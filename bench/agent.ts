/**
 * Benchmark of GET /api/agent/projects (`npm run bench:agent`): seeds an organization with 50 projects
 * (2 environments × 2 applications each) on a scratch database, starts Skiff in its own process
 * (bench/harness.ts) with the per-token rate limit raised (SKIFF_AGENT_RATE_LIMIT), then drives it with autocannon at 50 concurrent connections and prints p50/p99
 * latency (ms) and requests per second. The scratch database is dropped afterwards.
 * Options (environment): BENCH_DURATION seconds (default 10), BENCH_CONNECTIONS (default 50).
 */
import autocannon from "autocannon";
import { createKnex, migrateLatest } from "../src/db/knex.ts";
import { createAgentTokenFor, createOrg, createProjects, TEST_SECRET } from "../test/helpers/seed.ts";
import { scratchDatabase, startServerProcess } from "./harness.ts";

const PROJECTS = 50;
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);

async function main(): Promise<void> {
  const db = await scratchDatabase();
  try {
    const knex = createKnex(db.url);
    await migrateLatest(knex);
    const org = await createOrg(knex);
    await createProjects(knex, org.organizationId, PROJECTS, { environments: 2, applicationsPerEnvironment: 2 });
    const token = await createAgentTokenFor(knex, org.organizationId, org.owner);
    await knex.destroy();

    // The spec's 120/minute would turn the benchmark into a benchmark of 401s.
    const skiff = await startServerProcess(db.url, { SKIFF_AGENT_RATE_LIMIT: "1000000000" }, TEST_SECRET);
    try {
      const url = `${skiff.url}/api/agent/projects`;
      const probe = await fetch(url, { headers: { "x-api-key": token } });
      const body = (await probe.json()) as unknown[];
      if (probe.status !== 200 || body.length !== PROJECTS) throw new Error(`unexpected probe answer ${probe.status}`);
      await autocannon({ url, connections: CONNECTIONS, duration: 2, headers: { "x-api-key": token } });
      const result = await autocannon({
        url,
        connections: CONNECTIONS,
        duration: DURATION,
        headers: { "x-api-key": token },
      });
      // autocannon stops without waiting for its last answers: let them drain before shutting down.
      await new Promise((resolve) => setTimeout(resolve, 3000));
      const figures = {
        endpoint: "GET /api/agent/projects",
        projects: PROJECTS,
        connections: CONNECTIONS,
        durationSeconds: DURATION,
        database: db.label,
        latencyP50Ms: result.latency.p50,
        latencyP99Ms: result.latency.p99,
        requestsPerSecond: result.requests.average,
        requests: result.requests.total,
        non2xx: result.non2xx,
        errors: result.errors,
        responseBytes: JSON.stringify(body).length,
      };
      console.log(
        `GET /api/agent/projects (${PROJECTS} projects, ${CONNECTIONS} connections, ${DURATION} s): ` +
          `p50 ${figures.latencyP50Ms} ms, p99 ${figures.latencyP99Ms} ms, ${figures.requestsPerSecond} req/s ` +
          `(${figures.requests} requests, ${figures.non2xx} non-2xx, ${figures.errors} errors)`,
      );
      console.log(JSON.stringify(figures));
    } finally {
      await skiff.stop();
    }
  } finally {
    await db.drop();
  }
}

await main();
