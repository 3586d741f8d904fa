/**
 * Test jobs and a server starter for the job tests: every handler records what it ran (in this process: the
 * servers run in the test process), and each server's log lines are captured for assertions.
 */
import { Writable } from "node:stream";
import pino from "pino";
import { z } from "zod";
import { loadConfig } from "../../src/config.ts";
import { defineJob, type JobDefinition } from "../../src/jobs/job-definition.ts";
import type { AppServices } from "../../src/modules/services.ts";
import { type RunningSkiff, startSkiff } from "../../src/server/start.ts";
import { TEST_SECRET } from "../helpers/seed.ts";

/** One handler run. */
export interface Run {
  job: string;
  key: string;
  attempt: number;
  /** Which server ran it (its label). */
  instance: string;
  startedAt: number;
  finishedAt?: number;
}

/** Every run of every test job, in start order. */
export const runs: Run[] = [];
const labels = new Map<AppServices, string>();

function record(job: string, key: string, attempt: number, services: AppServices): Run {
  const run = { job, key, attempt, instance: labels.get(services) ?? "?", startedAt: Date.now() };
  runs.push(run);
  return run;
}

const keyed = z.object({ key: z.string(), sleepMs: z.number().int().min(0).optional() });

/**
 * The test jobs: `test.record` (backoff), `test.waits` (fails; waits 200 then 500 ms), `test.once` (fails; no
 * retry), `test.strict` (strict schema), `test.stubborn` (sleeps), `test.slow-waits` (sleeps, then fails; one
 * retry after 200 ms), `test.tick` (recurring).
 */
export const testJobs: JobDefinition[] = [
  defineJob({
    name: "test.record",
    payload: keyed,
    async handler(p, ctx) {
      const run = record("test.record", p.key, ctx.attempt, ctx.services);
      if (p.sleepMs) await new Promise((r) => setTimeout(r, p.sleepMs));
      run.finishedAt = Date.now();
    },
  }),
  defineJob({
    name: "test.waits",
    payload: keyed,
    retry: { kind: "waits", waitsMs: [200, 500] },
    async handler(p, ctx) {
      record("test.waits", p.key, ctx.attempt, ctx.services);
      throw new Error(`delivery ${p.key} failed at attempt ${ctx.attempt}`);
    },
  }),
  defineJob({
    name: "test.once",
    payload: keyed,
    retry: { kind: "none" },
    async handler(p, ctx) {
      record("test.once", p.key, ctx.attempt, ctx.services);
      throw new Error(`relay ${p.key} refused`);
    },
  }),
  defineJob({
    name: "test.strict",
    payload: z.object({ key: z.string(), amount: z.number().int() }),
    async handler(p, ctx) {
      record("test.strict", p.key, ctx.attempt, ctx.services);
    },
  }),
  defineJob({
    name: "test.stubborn",
    payload: keyed,
    async handler(p, ctx) {
      const run = record("test.stubborn", p.key, ctx.attempt, ctx.services);
      await new Promise((r) => setTimeout(r, p.sleepMs ?? 3000));
      run.finishedAt = Date.now();
    },
  }),
  defineJob({
    name: "test.slow-waits",
    payload: keyed,
    retry: { kind: "waits", waitsMs: [200] },
    async handler(p, ctx) {
      record("test.slow-waits", p.key, ctx.attempt, ctx.services);
      await new Promise((r) => setTimeout(r, p.sleepMs ?? 3000));
      throw new Error(`slow delivery ${p.key} failed`);
    },
  }),
  defineJob({
    name: "test.tick",
    payload: z.object({}),
    schedule: { cron: "0 0 1 1 *" },
    async handler(_p, ctx) {
      record("test.tick", "", ctx.attempt, ctx.services);
    },
  }),
];

/** A server started by {@link startJobServer}, with its captured log lines (parsed pino JSON). */
export interface JobServer {
  skiff: RunningSkiff;
  logs: Array<Record<string, unknown>>;
}

/** Starts Skiff on loopback on `databaseUrl` with {@link testJobs} registered, logging at info into `logs`. */
export async function startJobServer(
  databaseUrl: string,
  label: string,
  env: Record<string, string> = {},
): Promise<JobServer> {
  const config = loadConfig({
    DATABASE_URL: databaseUrl,
    HOST: "127.0.0.1",
    PORT: "0",
    SKIFF_METRICS_PORT: "main",
    SKIFF_SECRET: TEST_SECRET,
    SKIFF_BOOTSTRAP: "false",
    LOG_LEVEL: "info",
    ...env,
  });
  const logs: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split("\n").filter(Boolean)) logs.push(JSON.parse(line));
      done();
    },
  });
  const skiff = await startSkiff(config, pino({ level: "info" }, sink), { jobs: testJobs });
  labels.set(skiff.services, label);
  return { skiff, logs };
}

/** Polls `probe` every 10 ms until it is truthy. @throws after `timeoutMs`. */
export async function until(probe: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`Condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
