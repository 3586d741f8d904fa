/**
 * The bulk case of `npm run bench:import` (run after bench/import.ts): `skiff import <directory> --concurrency 8
 * --yes --json` — the CLI as a user runs it: previews, then imports with idempotency keys — on BENCH_BULK_SITES
 * (default 500) request files, against Skiff started in its own process on a scratch database (bench/harness.ts;
 * the default dry-run deployer). Prints sites per second (wall time of the command, previews included) and p50/p99
 * of each site's import duration (the CLI's `durationMs`: request to the end of its run). The scratch database is
 * dropped at the end.
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { createKnex, migrateLatest } from "../src/db/knex.ts";
import { createOrg, createRegistry, TEST_SECRET } from "../test/helpers/seed.ts";
import { scratchDatabase, startServerProcess } from "./harness.ts";

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
async function bulkImport(
  knex: ReturnType<typeof createKnex>,
  url: string,
): Promise<{ seconds: number; durations: number[]; succeeded: number }> {
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
try {
  const bulk = await bulkImport(knex, server.url);
  console.log(
    `skiff import (bulk, ${bulkSites} sites, concurrency ${BULK_CONCURRENCY}, ${db.label}): ` +
      `${(bulkSites / bulk.seconds).toFixed(1)} sites/s (${bulk.seconds.toFixed(1)} s)   ` +
      `import p50 ${Math.round(percentile(bulk.durations, 50))} ms   p99 ${Math.round(percentile(bulk.durations, 99))} ms   ` +
      `success ${bulk.succeeded}/${bulkSites}`,
  );
} finally {
  await server.stop();
  await knex.destroy();
  await db.drop();
}
