/**
 * `BENCH_WEBHOOKS_ONLY=instances npm run bench:webhooks`: webhook delivery by 1 and by 3 Skiff instances on one
 * PostgreSQL (docs/webhooks.md "Benchmark"). Each instance is a child process (`node src/main.ts` as `npm start`
 * runs it, ports 5101–5103, `SKIFF_WORKER=true`, SKIFF_WORKER_CONCURRENCY=50, small pools); events are written by
 * an in-process Skiff without workers (it delivers nothing) to BENCH_WEBHOOKS_INSTANCE_EVENTS events (default 300)
 * × 10 endpoints, in one transaction, timed from its commit, to the bench's HTTPS receiver (bench/webhooks.ts, role
 * `receiver`, port 5110, verifying every signature). BENCH_WEBHOOKS_INSTANCE_ROUNDS rounds (default 2) of a 1- and
 * a 3-instance run in alternating order, each on instances just started and warmed up (BENCH_WEBHOOKS_INSTANCE_WARMUP
 * events per instance, default 300, not counted: a new process spends much of its CPU compiling its hot paths for
 * its first few thousand deliveries); then a SIGKILL run: 3
 * instances, one of them killed once a third of the deliveries have arrived, waited for until every delivery has
 * ended (its leases expire after SKIFF_WEBHOOK_LEASE_SECONDS, 11 here: the least allowed). Every run's ledger:
 * published (events × endpoints) = delivered + failed and logged; 0 lost, 0 doubled, 0 bad signatures — except that a
 * delivery the killed instance held may arrive twice (at least once), counted once and printed as redelivered.
 */
import { fork } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { cpus, loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import type { Knex } from "knex";
import { loadConfig } from "../src/config.ts";
import type { AppServices } from "../src/modules/services.ts";
import { emitWebhookEvent } from "../src/modules/webhooks/webhook-emit.ts";
import { createLogger, startSkiff } from "../src/server/start.ts";
import { type BenchServer, scratchDatabase, startServerProcess } from "./harness.ts";
import { backendCpuDelta, type PgCpuSampler, pgCpuSampler, processCpuMs } from "./pg-cpu.ts";
import { deliveryLedger, printLedger } from "./webhook-ledger.ts";

const ENDPOINTS = 10;
const CONCURRENCY = 50;
const LEASE_SECONDS = 11;
const RECEIVER_PORT = 5110;
const PUBLISHER_PORT = 5109;
const INSTANCE_PORTS = [5101, 5102, 5103];
/** The instances' `application_name` (PGAPPNAME), by which their PostgreSQL backends are found (bench/pg-cpu.ts). */
const APP_NAME = "bench-webhook-instance";
const EVENTS = Number(process.env.BENCH_WEBHOOKS_INSTANCE_EVENTS ?? 300);
const ROUNDS = Number(process.env.BENCH_WEBHOOKS_INSTANCE_ROUNDS ?? 2);
/** Events per instance (× {@link ENDPOINTS}) delivered before a run's measured events, not counted. */
const WARMUP = Number(process.env.BENCH_WEBHOOKS_INSTANCE_WARMUP ?? 300);
const SECRET = randomBytes(32).toString("hex");
const data = {
  user: { user_uuid: "user_1", email: "ada@example.test", username: "ada" },
  course: { course_uuid: "course_1", name: "Compilers" },
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
/** The middle value, or the mean of the two middle ones. */
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const m = sorted.length >> 1;
  return sorted.length % 2 ? sorted[m]! : Math.round((sorted[m - 1]! + sorted[m]!) / 2);
};

/** The receiver process and what it reported: first arrival time and requests per delivery id, bad signatures. */
function startReceiver() {
  const child = fork(fileURLToPath(new URL("webhooks.ts", import.meta.url)), [], {
    env: { ...process.env, BENCH_WEBHOOKS_ROLE: "receiver", BENCH_WEBHOOKS_RECEIVER_PORT: String(RECEIVER_PORT) },
  });
  const firstAt = new Map<string, number>();
  const counts = new Map<string, number>();
  const waiters = new Set<() => void>();
  const state = { badSignatures: 0 };
  child.on("message", (m: { arrivals?: Array<[string, number, boolean]> }) => {
    for (const [id, at, ok] of m.arrivals ?? []) {
      if (!firstAt.has(id)) firstAt.set(id, at);
      counts.set(id, (counts.get(id) ?? 0) + 1);
      if (!ok) state.badSignatures++;
    }
    for (const w of waiters) w();
  });
  /** Resolves once `probe` holds, checked at every report. */
  const until = (probe: () => boolean, timeoutMs = 120_000) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (!probe()) return;
        clearTimeout(timer);
        waiters.delete(check);
        resolve();
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error("timed out waiting for deliveries"));
      }, timeoutMs);
      waiters.add(check);
      check();
    });
  return { child, firstAt, counts, state, until };
}
type Receiver = ReturnType<typeof startReceiver>;

/** An organization (pro plan) with {@link ENDPOINTS} endpoints on the receiver, their secrets told to it. */
async function organization(knex: Knex, services: AppServices, receiver: Receiver): Promise<string> {
  const organizationId = `org_bench${randomBytes(8).toString("hex")}`;
  await knex("organizations").insert({
    id: organizationId,
    name: organizationId,
    slug: organizationId,
    plan_id: "plan_pro",
  });
  const secrets: Record<string, string> = {};
  for (let i = 0; i < ENDPOINTS; i++) {
    const path = `/hook/${randomUUID()}`;
    const secret = `whsec_${randomBytes(32).toString("base64")}`;
    secrets[path] = secret;
    await knex("webhook_endpoints").insert({
      id: `webhook_${randomUUID()}`,
      organization_id: organizationId,
      url: `https://127.0.0.1:${RECEIVER_PORT}${path}`,
      events: ["course_completed"],
      secret_encrypted: services.secrets.encrypt(secret),
    });
  }
  receiver.child.send({ secrets });
  await sleep(50);
  return organizationId;
}

/** `n` instances on `databaseUrl`, started side by side, each a worker with small pools. */
function startInstances(databaseUrl: string, n: number): Promise<BenchServer[]> {
  const env = {
    SKIFF_WORKER: "true",
    SKIFF_WORKER_CONCURRENCY: String(CONCURRENCY),
    SKIFF_WORKER_POOL_MAX: "4",
    SKIFF_DB_POOL_MAX: "5",
    SKIFF_AUTH_POOL_MAX: "2",
    SKIFF_HEALTH_INTERVAL: "0",
    SKIFF_OUTBOUND_ALLOW: "127.0.0.1",
    SKIFF_WEBHOOK_LEASE_SECONDS: String(LEASE_SECONDS),
    PGAPPNAME: APP_NAME,
  };
  return Promise.all(INSTANCE_PORTS.slice(0, n).map((port) => startServerProcess(databaseUrl, env, SECRET, { port })));
}

/** The ledger of `ids` once none is pending; `held`: the deliveries a killed instance held under lease. */
async function ledger(knex: Knex, receiver: Receiver, ids: string[], held = new Set<string>()) {
  const pending = () =>
    knex("webhook_deliveries").whereIn("id", ids).where({ status: "pending" }).count("* as n") as Promise<
      Array<{ n: string }>
    >;
  for (let i = 0; i < 1200 && Number((await pending())[0]!.n) > 0; i++) await sleep(100);
  return deliveryLedger(knex, ids, receiver.counts, held);
}

/**
 * One run: `n` instances started and warmed up ({@link WARMUP} events per instance, not counted), {@link EVENTS} events published,
 * timed from their commit to the last first arrival; with `kill`, the first instance is SIGKILLed once a third of
 * them have arrived, the deliveries it then held under lease noted.
 */
async function run(
  ctx: {
    knex: Knex;
    services: AppServices;
    receiver: Receiver;
    organizationId: string;
    url: string;
    pgCpu: PgCpuSampler;
  },
  n: number,
  kill = false,
) {
  const { knex, services, receiver, organizationId } = ctx;
  const publish = async (events: number) => {
    const ids: string[] = [];
    await knex.transaction(async (trx) => {
      for (let i = 0; i < events; i++)
        for (const d of await emitWebhookEvent({ knex: trx, services }, organizationId, "course_completed", data))
          ids.push(d.deliveryId);
    });
    return ids;
  };
  const servers = await startInstances(ctx.url, n);
  try {
    const warm = await publish(WARMUP * n);
    await receiver.until(() => warm.every((id) => receiver.firstAt.has(id)));
    await ledger(knex, receiver, warm);
    const badBefore = receiver.state.badSignatures;
    const ids = await publish(EVENTS);
    const committed = Date.now();
    const nodeCpu = () => servers.reduce((ms, s) => ms + (processCpuMs(s.process.pid!) ?? 0), 0);
    const cpu0 = { node: nodeCpu(), postgres: await ctx.pgCpu.sample(APP_NAME) };
    const arrived = () => ids.reduce((k, id) => k + (receiver.firstAt.has(id) ? 1 : 0), 0);
    const held = new Set<string>();
    let killedPid: number | undefined;
    let arrivedAtKill = 0;
    if (kill) {
      await receiver.until(() => arrived() * 3 >= ids.length);
      killedPid = servers[0]!.process.pid!;
      servers[0]!.process.kill("SIGKILL");
      arrivedAtKill = arrived();
      await new Promise((r) => servers[0]!.process.once("exit", r));
      for (const id of (await knex("webhook_deliveries")
        .whereIn("id", ids)
        .where({ status: "pending" })
        .whereLike("locked_by", `%:${killedPid}:%`)
        .pluck("id")) as string[])
        held.add(id);
    }
    await receiver.until(() => ids.every((id) => receiver.firstAt.has(id)), 120_000 + LEASE_SECONDS * 1000);
    const postgresMs = backendCpuDelta(cpu0.postgres, await ctx.pgCpu.sample(APP_NAME));
    const nodeMs = nodeCpu() - cpu0.node;
    const last = Math.max(...ids.map((id) => receiver.firstAt.get(id)!));
    const waits = ids.map((id) => receiver.firstAt.get(id)! - committed).sort((a, b) => a - b);
    return {
      n,
      ledger: await ledger(knex, receiver, ids, held),
      badSignatures: receiver.state.badSignatures - badBefore,
      receivedMs: last - committed,
      perSecond: Math.round((ids.length * 1000) / Math.max(1, last - committed)),
      p50: pct(waits, 0.5),
      p99: pct(waits, 0.99),
      /** CPU per delivery, ms, from commit to the last arrival: the instances' processes, their backends. */
      cpuPerDelivery: { node: nodeMs / ids.length, postgres: postgresMs === null ? null : postgresMs / ids.length },
      kill: { pid: killedPid, arrived: arrivedAtKill, held: held.size },
    };
  } finally {
    await Promise.all(
      servers.filter((s) => s.process.exitCode === null && s.process.signalCode === null).map((s) => s.stop()),
    );
  }
}
type Run = Awaited<ReturnType<typeof run>>;

/** A run as printed. */
function printRun(label: string, r: Run): string {
  return `  ${label}: ${r.ledger.published} signed deliveries (${EVENTS} events × ${ENDPOINTS} endpoints), all received ${r.receivedMs} ms after commit → ${r.perSecond} deliveries/s; enqueue → first byte p50 ${r.p50} ms, p99 ${r.p99} ms; CPU per delivery: Node ${r.cpuPerDelivery.node.toFixed(2)} ms, PostgreSQL backends ${r.cpuPerDelivery.postgres?.toFixed(2) ?? "?"} ms; ${printLedger(r.ledger, r.badSignatures, false)}`;
}

/** Runs the rounds and the SIGKILL run and prints their figures; false when a ledger did not balance. */
export async function instancesBench(): Promise<boolean> {
  const db = await scratchDatabase();
  const receiver = startReceiver();
  await new Promise((resolve) => receiver.child.once("message", resolve));
  const config = loadConfig({
    DATABASE_URL: db.url,
    HOST: "127.0.0.1",
    PORT: String(PUBLISHER_PORT),
    SKIFF_SECRET: SECRET,
    SKIFF_BOOTSTRAP: "false",
    SKIFF_WORKER: "false",
    SKIFF_DB_POOL_MAX: "3",
    SKIFF_AUTH_POOL_MAX: "1",
    LOG_LEVEL: "error",
  });
  const publisher = await startSkiff(config, createLogger(config));
  const pgCpu = await pgCpuSampler(db.url);
  try {
    const { services } = publisher;
    const knex = services.knex;
    const ctx = {
      knex,
      services,
      receiver,
      url: db.url,
      pgCpu,
      organizationId: await organization(knex, services, receiver),
    };
    const runs: Run[] = [];
    const lines: string[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      // Alternating order, so that a drift of the machine's load weighs on both sides alike.
      for (const n of r % 2 === 0 ? [1, 3] : [3, 1]) {
        const one = await run(ctx, n);
        runs.push(one);
        lines.push(printRun(`round ${r + 1}, ${n} instance${n > 1 ? "s" : ""}`, one));
      }
    }
    const killed = await run(ctx, 3, true);
    const of = (n: number) => runs.filter((r) => r.n === n);
    const rate = (n: number) => {
      const rates = of(n)
        .map((r) => r.perSecond)
        .sort((a, b) => a - b);
      return {
        median: median(rates),
        text: `median ${median(rates)} deliveries/s (min ${rates[0]}, max ${rates.at(-1)})`,
      };
    };
    const cpu = (n: number) => {
      const node = median(of(n).map((r) => r.cpuPerDelivery.node * 1000)) / 1000;
      const postgres = of(n).some((r) => r.cpuPerDelivery.postgres === null)
        ? null
        : median(of(n).map((r) => r.cpuPerDelivery.postgres! * 1000)) / 1000;
      return `Node ${node.toFixed(2)} + PostgreSQL backends ${postgres?.toFixed(2) ?? "?"}`;
    };
    const ratio = rate(3).median / rate(1).median;
    const balanced = [...runs, killed].every((r) => r.ledger.balanced && r.badSignatures === 0);
    process.stdout.write(
      [
        `Webhook delivery by 1 and by 3 instances on one PostgreSQL (${db.label}): child processes, SKIFF_WORKER_CONCURRENCY=${CONCURRENCY} each, ${EVENTS} events × ${ENDPOINTS} endpoints per run, HTTPS receiver on loopback (own process, verifies every signature):`,
        ...lines,
        `  throughput: 1 instance ${rate(1).text}; 3 instances ${rate(3).text}; 3 / 1 = ${ratio.toFixed(2)} (goal ≥ 1: ${ratio >= 1 ? "MET" : "NOT MET"})`,
        `  enqueue → first byte (median of runs): 1 instance p50 ${median(of(1).map((r) => r.p50))} ms, p99 ${median(of(1).map((r) => r.p99))} ms; 3 instances p50 ${median(of(3).map((r) => r.p50))} ms, p99 ${median(of(3).map((r) => r.p99))} ms`,
        `  CPU per delivery, from commit to the last arrival (median of runs, ms): 1 instance ${cpu(1)}; 3 instances ${cpu(3)} (what the 3 spend beyond the 1 is the cost of more processes and of their coordination)`,
        `  SIGKILL run (3 instances, SKIFF_WEBHOOK_LEASE_SECONDS=${LEASE_SECONDS}): instance pid ${killed.kill.pid} killed after ${killed.kill.arrived} of ${killed.ledger.published} deliveries arrived, holding ${killed.kill.held} under lease; all received ${killed.receivedMs} ms after commit; ${printLedger(killed.ledger, killed.badSignatures, true)}`,
        `  machine load average at the end: ${loadavg()
          .map((l) => l.toFixed(1))
          .join(", ")} (${cpus().length} CPUs)`,
        "",
      ].join("\n"),
    );
    return balanced;
  } finally {
    await pgCpu.close();
    await publisher.stop();
    receiver.child.kill();
    await db.drop();
  }
}
