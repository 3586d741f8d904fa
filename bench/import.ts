/**
 * `npm run bench:import`: throughput and latency of the site import REST paths on a real server.
 * Starts Skiff in its own process on a scratch database (bench/harness.ts), seeds an organization on the unlimited plan with a container registry and an API key, then
 * drives with autocannon at 100 connections:
 *   1. POST /api/site-import — each request a new site (docker source, postgres database, domain, one variable);
 *   2. GET /api/site-import — the default page of 50 records;
 *   3. bulk: `skiff import <directory> --concurrency 8 --yes --json` (the CLI as a user runs it: previews, then imports
 *      with idempotency keys) on BENCH_BULK_SITES (default 500) request files, in a second organization.
 * Prints requests (imports) per second and p50/p99 latency in milliseconds; for the bulk run sites per second (wall
 * time of the command, previews included) and p50/p99 of each site's import duration (the CLI's `durationMs`: request
 * to the end of its run). The deployer is the default dry-run one. The scratch database is dropped at the end.
 * BENCH_SECONDS (default 10) sets the duration of each autocannon run, BENCH_CONNECTIONS (default 100) the
 * connections.
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import autocannon from "autocannon";
import { createKnex, migrateLatest } from "../src/db/knex.ts";
import { createOrg, createRegistry, TEST_SECRET } from "../test/helpers/seed.ts";
import { scratchDatabase, startServerProcess } from "./harness.ts";

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 100);
const bulkSites = Number(process.env.BENCH_BULK_SITES ?? 500);
const BULK_CONCURRENCY = 8;

/** The `p`-th percentile (0–100) of `values`, nearest rank. */
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN;
};

/**
 * Runs `skiff import` on `bulkSites` request files of a new organization against `url`.
 * @returns wall seconds, the per-site import durations (ms) and how many succeeded.
 */
async function bulkImport(url: string): Promise<{ seconds: number; durations: number[]; succeeded: number }> {
  const org = await createOrg(knex);
  await createRegistry(knex, org.organizationId);
  const dir = await mkdtemp(join(tmpdir(), "skiff-bench-bulk-"));
  try {
    await Promise.all(
      Array.from({ length: bulkSites }, (_, i) =>
        writeFile(
          join(dir, `${String(i).padStart(4, "0")}.json`),
          JSON.stringify({
            organizationId: org.organizationId,
            name: `bulk-${i}`,
            database: { type: "postgres", name: "app", user: "app", password: "bench-password" },
            source: { type: "docker", dockerImage: "nginx:1.27" },
            envVars: { APP_ENV: "bench" },
          }),
        ),
      ),
    );
    const started = performance.now();
    const cli = ["clients/cli/main.ts", "import", dir, "--yes", "--json", "--concurrency", String(BULK_CONCURRENCY)];
    const { stdout } = await promisify(execFile)(process.execPath, cli, {
      env: { ...process.env, SKIFF_URL: url, SKIFF_API_KEY: org.owner.apiKey, XDG_CONFIG_HOME: dir },
      maxBuffer: 64 * 1024 * 1024,
    });
    const seconds = (performance.now() - started) / 1000;
    const lines = stdout
      .split("\n")
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l) as { status: string; durationMs?: number });
    return {
      seconds,
      durations: lines.flatMap((l) => (l.durationMs === undefined ? [] : [l.durationMs])),
      succeeded: lines.filter((l) => l.status === "success").length,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

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

  const bulk = await bulkImport(url);

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
  console.log(
    `skiff import (bulk, ${bulkSites} sites, concurrency ${BULK_CONCURRENCY}): ${(bulkSites / bulk.seconds).toFixed(1)} sites/s (${bulk.seconds.toFixed(1)} s)   import p50 ${Math.round(percentile(bulk.durations, 50))} ms   p99 ${Math.round(percentile(bulk.durations, 99))} ms   success ${bulk.succeeded}/${bulkSites}`,
  );
} finally {
  await server.stop();
  await knex.destroy();
  await db.drop();
}
