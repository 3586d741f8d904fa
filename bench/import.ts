/**
 * `npm run bench:import`: throughput and latency of the site import REST paths on a real server.
 * Starts Skiff in its own process on a scratch database (bench/harness.ts), seeds an organization on the unlimited plan with a container registry and an API key, then
 * drives with autocannon at 100 connections:
 *   1. POST /api/site-import — each request a new site (docker source, postgres database, domain, one variable);
 *   2. GET /api/site-import — the default page of 50 records.
 * Prints requests (imports) per second and p50/p99 latency in milliseconds. The scratch database is dropped
 * at the end. BENCH_SECONDS (default 10) sets the duration of each run, BENCH_CONNECTIONS (default 100) the
 * connections.
 */
import autocannon from "autocannon";
import { createKnex, migrateLatest } from "../src/db/knex.ts";
import { createOrg, createRegistry, TEST_SECRET } from "../test/helpers/seed.ts";
import { scratchDatabase, startServerProcess } from "./harness.ts";

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 100);

const db = await scratchDatabase();
const knex = createKnex(db.url, { max: 2 });
await migrateLatest(knex);
const server = await startServerProcess(db.url, {}, TEST_SECRET);
const url = server.url;

try {
  const org = await createOrg(knex);
  await createRegistry(knex, org.organizationId);
  const headers = { "content-type": "application/json", authorization: `Bearer ${org.owner.apiKey}` };
  let n = 0;

  const imports = await autocannon({
    url: `${url}/api/site-import`,
    connections,
    duration: seconds,
    requests: [
      {
        method: "POST",
        headers,
        setupRequest: (req) => {
          n += 1;
          const name = `bench-${process.pid}-${n}`;
          return {
            ...req,
            body: JSON.stringify({
              organizationId: org.organizationId,
              name,
              domain: `${name}.bench.example.test`,
              database: { type: "postgres", name: "app", user: "app", password: "bench-password" },
              source: { type: "docker", dockerImage: "nginx:1.27" },
              envVars: { APP_ENV: "bench" },
            }),
          };
        },
      },
    ],
  });
  // autocannon stops counting at the deadline; let the imports still running on the server finish.
  for (let i = 0; i < 300; i++) {
    const running = await knex("site_imports").where({ status: "pending" }).count("* as n").first();
    if (Number(running?.n) === 0) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const succeeded = await knex("site_imports").where({ status: "success" }).count("* as n").first();

  const list = await autocannon({
    url: `${url}/api/site-import`,
    connections,
    duration: seconds,
    headers: { authorization: headers.authorization },
  });

  const line = (label: string, r: autocannon.Result, perSecond: number) =>
    `${label.padEnd(26)} ${perSecond.toFixed(1).padStart(8)}/s   p50 ${String(r.latency.p50).padStart(5)} ms   p99 ${String(
      r.latency.p99,
    ).padStart(5)} ms   2xx ${r["2xx"]}   non-2xx ${r.non2xx}   errors ${r.errors}`;
  console.log(`\nSkiff site import benchmark: ${connections} connections, ${seconds} s per run, ${db.label}`);
  console.log(line("POST /api/site-import", imports, imports["2xx"] / imports.duration));
  console.log(line("GET /api/site-import", list, list["2xx"] / list.duration));
  console.log(
    `imports recorded as success: ${Number(succeeded?.n ?? 0)} (of ${imports["2xx"] + imports.non2xx} answered)`,
  );
} finally {
  await server.stop();
  await knex.destroy();
  await db.drop();
}
