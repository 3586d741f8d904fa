/**
 * `npm run bench:jobs`: background job figures on a scratch database — two Skiff instances (in this process, as
 * their workers run in-process anyway) sharing one queue:
 * - enqueue → first attempt latency of single jobs (p50/p99), the LISTEN wake-up the webhook goal relies on;
 * - lateness of jobs scheduled with `runAt` (p50/max);
 * - throughput of a burst of no-op jobs across both instances (jobs per second).
 */
import { z } from "zod";
import { loadConfig } from "../src/config.ts";
import { defineJob } from "../src/jobs/job-definition.ts";
import { createLogger, startSkiff } from "../src/server/start.ts";
import { scratchDatabase } from "./harness.ts";

const started = new Map<string, number>();
const benchJob = defineJob({
  name: "bench.noop",
  payload: z.object({ key: z.string() }),
  async handler(p) {
    started.set(p.key, Date.now());
  },
});

const db = await scratchDatabase();
const config = loadConfig({
  DATABASE_URL: db.url,
  HOST: "127.0.0.1",
  PORT: "0",
  SKIFF_METRICS_PORT: "main",
  SKIFF_SECRET: "bench-secret-bench-secret-bench-secret-00",
  SKIFF_BOOTSTRAP: "false",
  LOG_LEVEL: "warn",
});
const instances = [
  await startSkiff(config, createLogger(config), { jobs: [benchJob] }),
  await startSkiff(config, createLogger(config), { jobs: [benchJob] }),
];
const { jobs, knex } = instances[0]!.services;

async function until(probe: () => boolean): Promise<void> {
  while (!probe()) await new Promise((r) => setTimeout(r, 1));
}
const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;

try {
  const latencies: number[] = [];
  for (let i = 0; i < 200; i++) {
    const key = `single-${i}`;
    const t0 = Date.now();
    await jobs.enqueue(knex, benchJob.name, { key });
    await until(() => started.has(key));
    latencies.push(started.get(key)! - t0);
  }
  latencies.sort((a, b) => a - b);

  const lateness: number[] = [];
  const due = Array.from({ length: 20 }, (_, i) => ({ key: `at-${i}`, at: Date.now() + 200 + i * 50 }));
  for (const d of due) await jobs.enqueue(knex, benchJob.name, { key: d.key }, { runAt: new Date(d.at) });
  for (const d of due) {
    await until(() => started.has(d.key));
    lateness.push(started.get(d.key)! - d.at);
  }
  lateness.sort((a, b) => a - b);

  const burst = 2000;
  const t0 = Date.now();
  await knex.transaction(async (trx) => {
    for (let i = 0; i < burst; i++) await jobs.enqueue(trx, benchJob.name, { key: `burst-${i}` });
  });
  const enqueued = Date.now();
  await until(
    () => started.has(`burst-${burst - 1}`) && [...Array(burst).keys()].every((i) => started.has(`burst-${i}`)),
  );
  const done = Date.now();

  process.stdout.write(
    [
      `Background jobs on ${db.label}, 2 instances × concurrency ${config.SKIFF_WORKER_CONCURRENCY}:`,
      `  enqueue → first attempt (200 jobs, one at a time): p50 ${pct(latencies, 0.5)} ms, p99 ${pct(latencies, 0.99)} ms`,
      `  runAt lateness (20 scheduled jobs): p50 ${pct(lateness, 0.5)} ms, max ${lateness.at(-1)} ms`,
      `  burst of ${burst} no-op jobs: enqueued in one transaction in ${enqueued - t0} ms, all started ${done - enqueued} ms after commit (${Math.round((burst * 1000) / (done - enqueued))} jobs/s)`,
      "",
    ].join("\n"),
  );
} finally {
  for (const s of instances) await s.stop();
  await db.drop();
}
