/**
 * `npm run bench:webhooks`: webhook delivery figures on a scratch database, to a loopback HTTPS receiver in its
 * own process (it verifies every signature over the raw bytes, as the receiver rules say, and answers 200):
 * - enqueue → first attempt (publish committed → request at the receiver), 200 single events: p50/p99;
 * - throughput of signed deliveries at 50 concurrent (SKIFF_WORKER_CONCURRENCY=50, BENCH_WEBHOOKS_CONCURRENCY sets
 *   another): 50 endpoints × 40 events, in
 *   BENCH_WEBHOOKS_ROUNDS rounds (default 3; the median is the figure, the machine being shared), after
 *   BENCH_WEBHOOKS_WARMUP rounds not counted (default 6: the JIT's compilation is not steady-state cost; V8 tiers the
 *   hot paths up to its optimizing compiler at about 12,000 deliveries).
 * - latency at half of that rate: events to the same 50 endpoints, each in its own transaction, at a steady pace of
 *   half the median rate for BENCH_WEBHOOKS_PACED_SECONDS (default 5): commit → request at the receiver p50/p99,
 *   against the goal (p99 ≤ 50 ms).
 * - isolation (skipped with BENCH_WEBHOOKS_ONLY=throughput): healthy throughput and p99 (commit → request at the receiver) and the CPU time (server + PostgreSQL)
 *   per healthy delivery of 9 endpoints × BENCH_WEBHOOKS_ISOLATION_EVENTS events (default 100), without and with a
 *   10th endpoint whose receiver (a server of its own) never answers (each of its attempts runs into the 10 s budget),
 *   in BENCH_WEBHOOKS_ISOLATION_ROUNDS pairs (default 5, alternating order, after one run not counted); the ratios
 *   with / without (median, min, max) against the goal: within 10 %. BENCH_WEBHOOKS_ONLY=isolation runs only these;
 *   SKIFF_WEBHOOK_ENDPOINT_CONCURRENCY sets the cap measured.
 * - 1 and 3 instances on one PostgreSQL, and 3 with one SIGKILLed mid-run (bench/webhook-instances.ts): after the
 *   above, or alone with BENCH_WEBHOOKS_ONLY=instances.
 * Every round is checked with an exact ledger (as Hookdeck's Outpost voids load runs that do not balance): deliveries
 * published (events × subscribed endpoints) = marked delivered + failed with their attempts logged; none lost (not
 * received and not failed), none doubled (received more often than attempts were logged), every signature valid.
 * A round that does not balance is printed as VOID and the bench exits 1.
 * The endpoints' URLs name the receiver `localhost` (BENCH_WEBHOOKS_HOST; `127.0.0.1` for calls that resolve nothing),
 * and SKIFF_OUTBOUND_DNS_CACHE_SECONDS is passed on to the server (0: every call resolves the name).
 * BENCH_CPU_PROF_DIR writes V8 CPU profiles of the bench process (the server) and the receiver there.
 * The receiver's certificate comes from a throw-away CA (test/helpers/test-ca.ts); Node reads NODE_EXTRA_CA_CERTS
 * only at start, so the script re-runs itself with it set.
 */
import { type ChildProcess, fork, spawnSync } from "node:child_process";
import { createHmac, randomBytes, randomUUID, timingSafeEqual } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer } from "node:https";
import { cpus, loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import { rerunTrustingTestCa } from "./trusted-rerun.ts";

const self = fileURLToPath(import.meta.url);
const role = process.env.BENCH_WEBHOOKS_ROLE;

if (!role) {
  // Parent: run the bench with the receiver's CA trusted.
  const profile = process.env.BENCH_CPU_PROF_DIR;
  await rerunTrustingTestCa(self, "BENCH_WEBHOOKS_ROLE", profile ? ["--cpu-prof", `--cpu-prof-dir=${profile}`] : []);
} else if (role === "receiver") {
  // Receiver process: verify, answer 200, report arrivals to the bench over IPC (batched).
  const secrets = new Map<string, string>();
  let pending: Array<[string, number, boolean]> = [];
  setInterval(() => {
    if (pending.length) {
      process.send!({ arrivals: pending });
      pending = [];
    }
  }, 5).unref();
  // Exit normally on SIGTERM, so that a --cpu-prof profile is written.
  process.on("SIGTERM", () => process.exit(0));
  /** Requests the never-answering receiver holds (dropped on a `release` message, ending an isolation run). */
  const hung = new Set<import("node:http").ServerResponse>();
  process.on("message", (m: { secrets?: Record<string, string>; cpu?: boolean; release?: boolean }) => {
    for (const [path, secret] of Object.entries(m.secrets ?? {})) secrets.set(path, secret);
    if (m.cpu) process.send!({ cpu: process.cpuUsage() });
    if (m.release) {
      for (const res of hung) res.destroy();
      hung.clear();
      process.send!({ released: true });
    }
  });
  const tls = { cert: readFileSync(process.env.BENCH_CERT!), key: readFileSync(process.env.BENCH_KEY!) };
  const server = createServer(tls, (req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const at = Date.now();
      const body = Buffer.concat(chunks);
      const secret = secrets.get(req.url ?? "") ?? "";
      const expected = Buffer.from(`sha256=${createHmac("sha256", secret).update(body).digest("hex")}`);
      const given = Buffer.from(String(req.headers["x-webhook-signature"] ?? ""));
      const ok = given.length === expected.length && timingSafeEqual(given, expected);
      pending.push([String(req.headers["x-webhook-delivery"]), at, ok]);
      res.writeHead(ok ? 200 : 401).end();
    });
  });
  // The never-answering receiver listens on a port of its own: a dead receiver is another origin, and the outbound
  // client pools connections per origin (16), so sharing the healthy one's origin would measure that pool instead.
  const hangServer = createServer(tls, (req, res) => {
    hung.add(res);
    res.on("close", () => hung.delete(res));
    req.resume();
    req.on("end", () => pending.push([String(req.headers["x-webhook-delivery"]), Date.now(), true]));
  });
  const portOf = (s: typeof server) => (s.address() as { port: number }).port;
  // BENCH_WEBHOOKS_RECEIVER_PORT: the healthy receiver's port (the never-answering one's the next); else any free.
  const fixedPort = Number(process.env.BENCH_WEBHOOKS_RECEIVER_PORT ?? 0);
  server.listen(fixedPort, "127.0.0.1", () =>
    hangServer.listen(fixedPort && fixedPort + 1, "127.0.0.1", () =>
      process.send!({ port: portOf(server), hangPort: portOf(hangServer) }),
    ),
  );
} else if (process.env.BENCH_WEBHOOKS_ONLY === "instances") {
  const { instancesBench } = await import("./webhook-instances.ts");
  if (!(await instancesBench())) process.exitCode = 1;
} else {
  const { loadConfig } = await import("../src/config.ts");
  const { createLogger, startSkiff } = await import("../src/server/start.ts");
  const { cancelPendingDeliveries, emitWebhookEvent } = await import("../src/modules/webhooks/webhook-emit.ts");
  const { endpointSlots } = await import("../src/modules/webhooks/webhook-endpoint-slots.ts");
  const { scratchDatabase } = await import("./harness.ts");
  const { deliveryLedger, printLedger } = await import("./webhook-ledger.ts");

  const receiver: ChildProcess = fork(self, [], { env: { ...process.env, BENCH_WEBHOOKS_ROLE: "receiver" } });
  const arrivals = new Map<string, number>();
  /** Requests received per delivery id (a delivery attempted twice arrives twice). */
  const arrivalCounts = new Map<string, number>();
  let badSignatures = 0;
  /** Delivery ids a round waits for that have not arrived yet (the probe is then O(1) per report). */
  const awaited = new Set<string>();
  /** Probes re-run at every report of the receiver (no polling: the bench shares the server's event loop). */
  const waiters = new Set<() => void>();
  let cpuAnswer: ((usage: NodeJS.CpuUsage) => void) | undefined;
  let releaseAnswer: (() => void) | undefined;
  let hangPort = 0;
  const port = await new Promise<number>((resolve) =>
    receiver.on(
      "message",
      (m: {
        port?: number;
        hangPort?: number;
        arrivals?: Array<[string, number, boolean]>;
        cpu?: NodeJS.CpuUsage;
        released?: boolean;
      }) => {
        if (m.hangPort) hangPort = m.hangPort;
        if (m.released) releaseAnswer?.();
        if (m.port) resolve(m.port);
        if (m.cpu) cpuAnswer?.(m.cpu);
        for (const [id, at, ok] of m.arrivals ?? []) {
          if (!arrivals.has(id)) arrivals.set(id, at);
          awaited.delete(id);
          arrivalCounts.set(id, (arrivalCounts.get(id) ?? 0) + 1);
          if (!ok) badSignatures++;
        }
        for (const w of waiters) w();
      },
    ),
  );
  /** The receiver's CPU time so far, µs. */
  const receiverCpu = () =>
    new Promise<number>((resolve) => {
      cpuAnswer = (u) => resolve(u.user + u.system);
      receiver.send({ cpu: true });
    });
  const ticksPerMs = Number(spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).stdout.trim() || 100) / 1000;
  /**
   * CPU time of the PostgreSQL backends serving `knex`'s database, ms by backend pid (read from /proc: only
   * when PostgreSQL runs on this machine and its processes are readable; otherwise empty).
   */
  async function backendCpu(): Promise<Map<number, number>> {
    const out = new Map<number, number>();
    const { rows } = (await knex.raw("select pid from pg_stat_activity where datname = current_database()")) as {
      rows: Array<{ pid: number }>;
    };
    for (const { pid } of rows) {
      try {
        const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
        out.set(pid, (Number(fields[11]) + Number(fields[12])) / ticksPerMs);
      } catch {
        // not on this machine, or gone
      }
    }
    return out;
  }
  const db = await scratchDatabase();
  /** SKIFF_WORKER_CONCURRENCY of the server (BENCH_WEBHOOKS_CONCURRENCY, default 50). */
  const concurrency = Number(process.env.BENCH_WEBHOOKS_CONCURRENCY ?? 50);
  /**
   * The endpoints' host (BENCH_WEBHOOKS_HOST, default `localhost`): a name, resolved by the system resolver as the
   * host of every user's URL is (allow-listed, with what it resolves to); `127.0.0.1` measures calls that resolve
   * nothing.
   */
  const receiverHost = process.env.BENCH_WEBHOOKS_HOST ?? "localhost";
  const config = loadConfig({
    DATABASE_URL: db.url,
    HOST: "127.0.0.1",
    PORT: "0",
    SKIFF_METRICS_PORT: "main",
    SKIFF_SECRET: "bench-secret-bench-secret-bench-secret-00",
    SKIFF_BOOTSTRAP: "false",
    SKIFF_OUTBOUND_ALLOW: `127.0.0.1,${receiverHost}`,
    SKIFF_WORKER_CONCURRENCY: String(concurrency),
    ...(process.env.SKIFF_OUTBOUND_DNS_CACHE_SECONDS
      ? { SKIFF_OUTBOUND_DNS_CACHE_SECONDS: process.env.SKIFF_OUTBOUND_DNS_CACHE_SECONDS }
      : {}),
    // The per-endpoint cap to measure (unset: its default).
    ...(process.env.SKIFF_WEBHOOK_ENDPOINT_CONCURRENCY
      ? { SKIFF_WEBHOOK_ENDPOINT_CONCURRENCY: process.env.SKIFF_WEBHOOK_ENDPOINT_CONCURRENCY }
      : {}),
    LOG_LEVEL: "error",
  });
  const skiff = await startSkiff(config, createLogger(config));
  const { services } = skiff;
  const knex = services.knex;
  /** Statements sent through the server's request pool (its job runner's own pool, graphile-worker's, not counted). */
  let statements = 0;
  /** Statements by kind (named prepared statements by name, others by their first words), over the rounds. */
  const kinds = new Map<string, number>();
  let counting = false;
  knex.on("query", (q: { sql: string; options?: { name?: string } }) => {
    statements++;
    if (!counting) return;
    const kind = q.options?.name ?? q.sql.replace(/\s+/g, " ").trim().slice(0, 48);
    kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
  });
  const until = (probe: () => boolean, timeoutMs = 120_000) =>
    new Promise<void>((resolve, reject) => {
      if (probe()) return resolve();
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error("timed out waiting for deliveries"));
      }, timeoutMs);
      const check = () => {
        if (!probe()) return;
        clearTimeout(timer);
        waiters.delete(check);
        resolve();
      };
      waiters.add(check);
    });
  /** Resolves once every delivery of `ids` has arrived at the receiver. */
  const allArrived = (ids: string[]) => {
    for (const id of ids) if (!arrivals.has(id)) awaited.add(id);
    return until(() => awaited.size === 0);
  };
  const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;

  /** An organization (pro plan) with `n` endpoints on the receiver, and `hanging` whose receiver never answers. */
  async function organizationWith(n: number, hanging = 0) {
    const organizationId = `org_bench${randomBytes(8).toString("hex")}`;
    await knex("organizations").insert({
      id: organizationId,
      name: organizationId,
      slug: organizationId,
      plan_id: "plan_pro",
    });
    const secrets: Record<string, string> = {};
    for (let i = 0; i < n + hanging; i++) {
      const path = `/${i < n ? "hook" : "hang"}/${randomUUID()}`;
      const secret = `whsec_${randomBytes(32).toString("base64")}`;
      secrets[path] = secret;
      await knex("webhook_endpoints").insert({
        id: `webhook_${randomUUID()}`,
        organization_id: organizationId,
        url: `https://${receiverHost}:${path.startsWith("/hang/") ? hangPort : port}${path}`,
        events: ["course_completed"],
        secret_encrypted: services.secrets.encrypt(secret),
      });
    }
    receiver.send({ secrets });
    await new Promise((r) => setTimeout(r, 50));
    return organizationId;
  }
  const data = {
    user: { user_uuid: "user_1", email: "ada@example.test", username: "ada" },
    course: { course_uuid: "course_1", name: "Compilers" },
  };

  try {
    const isolationOnly = process.env.BENCH_WEBHOOKS_ONLY === "isolation";
    const single = await organizationWith(1);
    const latencies: number[] = [];
    for (let i = 0; i < (isolationOnly ? 0 : 200); i++) {
      const t0 = Date.now();
      const [d] = await emitWebhookEvent({ knex, services }, single, "course_completed", data);
      await until(() => arrivals.has(d!.deliveryId));
      latencies.push(arrivals.get(d!.deliveryId)! - t0);
    }
    latencies.sort((a, b) => a - b);

    const wide = await organizationWith(50);
    const events = 40;
    /**
     * The ledger of the deliveries `ids` (bench/webhook-ledger.ts), read 500 ms after the last arrived so that every
     * outcome is written, with the bad signatures since `badBefore`; balanced with none of them.
     */
    async function ledgerOf(ids: string[], badBefore: number) {
      await new Promise((r) => setTimeout(r, 500));
      const ledger = await deliveryLedger(knex, ids, arrivalCounts);
      const bad = badSignatures - badBefore;
      return { ledger, bad, balanced: ledger.balanced && bad === 0, delivered: ledger.delivered };
    }
    /** One round: `events` events to the 50 endpoints, written in one transaction, timed from its commit. */
    async function round() {
      const ids: string[] = [];
      const badBefore = badSignatures;
      const t0 = Date.now();
      await knex.transaction(async (trx) => {
        for (let i = 0; i < events; i++) {
          ids.push(
            ...(await emitWebhookEvent({ knex: trx, services }, wide, "course_completed", data)).map(
              (d) => d.deliveryId,
            ),
          );
        }
      });
      const committed = Date.now();
      const cpu0 = { server: process.cpuUsage(), receiver: await receiverCpu(), backends: await backendCpu() };
      const statements0 = statements;
      counting = true;
      await allArrived(ids);
      counting = false;
      const sent = statements - statements0;
      const server = process.cpuUsage(cpu0.server);
      const receiverUs = (await receiverCpu()) - cpu0.receiver;
      let backendMs = 0;
      for (const [pid, ms] of await backendCpu()) backendMs += ms - (cpu0.backends.get(pid) ?? 0);
      const last = Math.max(...ids.map((id) => arrivals.get(id)!));
      const { ledger, bad, balanced, delivered } = await ledgerOf(ids, badBefore);
      return {
        ledger,
        bad,
        balanced,
        ids,
        writtenMs: committed - t0,
        receivedMs: last - committed,
        perSecond: Math.round((ids.length * 1000) / (last - committed)),
        delivered,
        statementsPerDelivery: sent / ids.length,
        /** CPU per delivery, ms: this process (the server), the receiver, the PostgreSQL backends. */
        cpuPerDelivery: {
          server: (server.user + server.system) / 1000 / ids.length,
          receiver: receiverUs / 1000 / ids.length,
          postgres: backendMs / ids.length,
        },
      };
    }
    // Warm-up rounds, not counted: until the JIT has compiled the hot paths, a round spends up to a fifth of the
    // server's CPU time compiling (seen in `perf` profiles of the first ten rounds).
    const warmUp: Array<Awaited<ReturnType<typeof round>>> = [];
    for (let r = 0; r < (isolationOnly ? 0 : Number(process.env.BENCH_WEBHOOKS_WARMUP ?? 6)); r++)
      warmUp.push(await round());
    const rounds: Array<Awaited<ReturnType<typeof round>>> = [];
    for (let r = 0; r < (isolationOnly ? 0 : Number(process.env.BENCH_WEBHOOKS_ROUNDS ?? 3)); r++)
      rounds.push(await round());
    const rates = rounds.map((r) => r.perSecond).sort((a, b) => a - b);
    /**
     * The latency goal's load: events to the 50 endpoints at `deliveriesPerSecond` (half of the median rate the
     * rounds reached), each event written in its own transaction as a mutation writes it, due at a steady pace
     * (open loop: event i at start + i / rate, whatever the others), for BENCH_WEBHOOKS_PACED_SECONDS (default 5):
     * every delivery's time from its event's commit (the emission's answer) to its request at the receiver, and the
     * ledger.
     */
    async function paced(deliveriesPerSecond: number) {
      const seconds = Number(process.env.BENCH_WEBHOOKS_PACED_SECONDS ?? 5);
      const eventsPerSecond = deliveriesPerSecond / 50;
      const count = Math.max(1, Math.round(eventsPerSecond * seconds));
      const badBefore = badSignatures;
      const committedAt = new Map<string, number>();
      const emitted: Array<Promise<void>> = [];
      const start = Date.now();
      for (let i = 0; i < count; i++) {
        const wait = start + (i * 1000) / eventsPerSecond - Date.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        emitted.push(
          emitWebhookEvent({ knex, services }, wide, "course_completed", data).then((ds) => {
            const at = Date.now();
            for (const d of ds) committedAt.set(d.deliveryId, at);
          }),
        );
      }
      await Promise.all(emitted);
      const ids = [...committedAt.keys()];
      await allArrived(ids);
      const waits = ids.map((id) => arrivals.get(id)! - committedAt.get(id)!).sort((a, b) => a - b);
      return {
        ids,
        eventsPerSecond,
        seconds,
        p50: pct(waits, 0.5),
        p99: pct(waits, 0.99),
        ...(await ledgerOf(ids, badBefore)),
      };
    }
    const half = rounds.length ? await paced(pct(rates, 0.5) / 2) : undefined;
    const ids = [...rounds.flatMap((r) => r.ids), ...(half?.ids ?? [])];
    const cpuMedian = (k: "server" | "receiver" | "postgres") =>
      pct(
        rounds.map((r) => r.cpuPerDelivery[k]).sort((a, b) => a - b),
        0.5,
      ).toFixed(3);
    // The deliveries' row updates that wrote no index entry (HOT), as the statistics have them (flushed within 1 s).
    await new Promise((r) => setTimeout(r, 1500));
    const [updates] = (
      await knex.raw(
        "select n_tup_upd::int as updated, n_tup_hot_upd::int as hot from pg_stat_user_tables where relname = 'webhook_deliveries'",
      )
    ).rows as Array<{ updated: number; hot: number }>;
    const durations = (
      (await knex("webhook_delivery_attempts")
        .whereRaw("delivery_id = any(?::text[])", [ids])
        .pluck("duration_ms")) as number[]
    ).sort((a, b) => a - b);
    /**
     * `events` events to 9 healthy endpoints (and `hanging` that never answer), written in one transaction: the
     * healthy deliveries' rate and p99 commit → request at the receiver, the CPU time (this process, PostgreSQL
     * backends) per healthy delivery meanwhile, and their ledger (each delivered once, signatures valid). The hung
     * endpoints are then deactivated (their pending attempts cancelled) and their receiver drops the requests it
     * holds, and the run ends once no delivery job is left, so the next run starts from an empty queue.
     */
    async function isolationRun(hanging: number) {
      const org = await organizationWith(9, hanging);
      const hungEndpoints = (await knex("webhook_endpoints")
        .where({ organization_id: org })
        .whereLike("url", "%/hang/%")
        .pluck("id")) as string[];
      const hung = new Set(hungEndpoints);
      const healthyIds: string[] = [];
      const badBefore = badSignatures;
      await knex.transaction(async (trx) => {
        for (let i = 0; i < isolationEvents; i++) {
          for (const d of await emitWebhookEvent({ knex: trx, services }, org, "course_completed", data))
            if (!hung.has(d.webhookUuid)) healthyIds.push(d.deliveryId);
        }
      });
      const committed = Date.now();
      const cpu0 = { server: process.cpuUsage(), backends: await backendCpu() };
      await allArrived(healthyIds);
      const server = process.cpuUsage(cpu0.server);
      let backendMs = 0;
      for (const [pid, ms] of await backendCpu()) backendMs += ms - (cpu0.backends.get(pid) ?? 0);
      const waits = healthyIds.map((id) => arrivals.get(id)! - committed).sort((a, b) => a - b);
      await new Promise((r) => setTimeout(r, 300));
      const delivered = Number(
        (
          (await knex("webhook_deliveries")
            .whereIn("id", healthyIds)
            .where({ status: "delivered" })
            .count("* as n")) as Array<{ n: string }>
        )[0]!.n,
      );
      const balanced =
        delivered === healthyIds.length &&
        healthyIds.every((id) => arrivalCounts.get(id) === 1) &&
        badSignatures === badBefore;
      for (const id of hungEndpoints) {
        await knex("webhook_endpoints").where({ id }).update({ is_active: false });
        await cancelPendingDeliveries(knex, services.jobs, id);
      }
      await new Promise<void>((resolve) => {
        releaseAnswer = resolve;
        receiver.send({ release: true });
      });
      for (let i = 0; i < 300; i++) {
        const [{ n }] = (
          await knex.raw(
            "select count(*)::int as n from webhook_deliveries where locked_by is not null and status = 'pending'",
          )
        ).rows as Array<{ n: number }>;
        if (n === 0) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      return {
        perSecond: Math.round((healthyIds.length * 1000) / Math.max(1, waits.at(-1)!)),
        p99: pct(waits, 0.99),
        cpuMs: ((server.user + server.system) / 1000 + backendMs) / healthyIds.length,
        balanced,
      };
    }
    const isolationEvents = Number(process.env.BENCH_WEBHOOKS_ISOLATION_EVENTS ?? 100);
    const pairs: Array<{
      without: Awaited<ReturnType<typeof isolationRun>>;
      with: Awaited<ReturnType<typeof isolationRun>>;
    }> = [];
    const isolationRounds =
      process.env.BENCH_WEBHOOKS_ONLY === "throughput" ? 0 : Number(process.env.BENCH_WEBHOOKS_ISOLATION_ROUNDS ?? 5);
    // A first run, not counted, warms connections and code up.
    if (isolationRounds > 0) await isolationRun(0);
    for (let r = 0; r < isolationRounds; r++) {
      // Alternating order, so that a drift of the machine's load weighs on both sides alike.
      if (r % 2 === 0) {
        const without = await isolationRun(0);
        pairs.push({ without, with: await isolationRun(1) });
      } else {
        const withBad = await isolationRun(1);
        pairs.push({ without: await isolationRun(0), with: withBad });
      }
    }
    const ratios = pairs.map((p) => ({
      rate: (100 * p.with.perSecond) / p.without.perSecond,
      p99: (100 * p.with.p99) / Math.max(1, p.without.p99),
      cpu: (100 * p.with.cpuMs) / p.without.cpuMs,
    }));
    const spread = (k: "rate" | "p99" | "cpu") => {
      const sorted = ratios.map((r) => r[k]).sort((a, b) => a - b);
      return `median ${pct(sorted, 0.5).toFixed(0)} % (min ${sorted[0]!.toFixed(0)}, max ${sorted.at(-1)!.toFixed(0)})`;
    };
    const rateMedian = pct(
      ratios.map((r) => r.rate).sort((a, b) => a - b),
      0.5,
    );
    const p99Median = pct(
      ratios.map((r) => r.p99).sort((a, b) => a - b),
      0.5,
    );
    const slots = endpointSlots(services.config);
    process.stdout.write(
      [
        `Webhook delivery on ${db.label}, one instance, SKIFF_WORKER_CONCURRENCY=${concurrency}, HTTPS receiver on loopback named ${receiverHost} (own process, verifies every signature; SKIFF_OUTBOUND_DNS_CACHE_SECONDS=${services.config.SKIFF_OUTBOUND_DNS_CACHE_SECONDS}):`,
        ...(rounds.length
          ? [
              `  enqueue → first attempt (200 events, one at a time): p50 ${pct(latencies, 0.5)} ms, p99 ${pct(latencies, 0.99)} ms`,
              ...(warmUp.length
                ? [
                    `  warm-up: ${warmUp.length} rounds of the shape below, not counted (${warmUp.map((r) => `${r.perSecond}/s, ${r.cpuPerDelivery.server.toFixed(3)} + ${r.cpuPerDelivery.postgres.toFixed(3)} ms`).join("; ")}); ledgers ${warmUp.every((r) => r.balanced) ? "balanced" : "VOID"}`,
                  ]
                : []),
              ...rounds.map(
                (r, i) =>
                  `  round ${i + 1}: ${r.ids.length} signed deliveries (${events} events × 50 endpoints): written in ${r.writtenMs} ms, all received ${r.receivedMs} ms after commit → ${r.perSecond} deliveries/s, CPU per delivery ${r.cpuPerDelivery.server.toFixed(3)} + ${r.cpuPerDelivery.postgres.toFixed(3)} ms (server + PostgreSQL); ${printLedger(r.ledger, r.bad)}`,
              ),
              `  throughput: median ${pct(rates, 0.5)} deliveries/s over ${rounds.length} rounds (min ${rates[0]}, max ${rates.at(-1)}); ${badSignatures} bad signatures`,
              ...(half
                ? [
                    `  at half of that rate (${Math.round(half.eventsPerSecond * 50)} deliveries/s: ${half.eventsPerSecond.toFixed(1)} events/s × 50 endpoints, each event its own transaction, ${half.seconds} s open loop): commit → first byte at the receiver p50 ${half.p50} ms, p99 ${half.p99} ms (goal p99 ≤ 50 ms: ${half.p99 <= 50 ? "MET" : "NOT MET"}); ${printLedger(half.ledger, half.bad)}`,
                  ]
                : []),
              `  CPU per delivery (median of rounds, ms): server ${cpuMedian("server")}, receiver ${cpuMedian("receiver")}, PostgreSQL backends ${cpuMedian("postgres")} (less is faster on a quiet machine)`,
              `  statements per delivery through the request pool, from commit to the last arrival (median of rounds; the job runner's own pool not counted): ${pct(
                rounds.map((r) => r.statementsPerDelivery).sort((a, b) => a - b),
                0.5,
              ).toFixed(3)}; by kind over ${ids.length} deliveries: ${[...kinds]
                .sort((a, b) => b[1] - a[1])
                .map(([k, n]) => `${n} ${k}`)
                .join("; ")}`,
              `  webhook_deliveries row updates: ${updates?.updated ?? "?"}, of which HOT (no index entry written): ${updates?.hot ?? "?"}`,
              `  one attempt's HTTPS call (resolve + check + TLS connect + request + answer), as logged: p50 ${pct(durations, 0.5)} ms, p99 ${pct(durations, 0.99)} ms`,
            ]
          : []),
        ...(pairs.length
          ? [
              `  isolation (${9 * isolationEvents} healthy deliveries: ${isolationEvents} events × 9 endpoints, without and with a 10th endpoint that never answers (+${isolationEvents} deliveries to it); per-endpoint cap ${slots} of ${concurrency} workers):`,
              ...pairs.map(
                (p, i) =>
                  `    pair ${i + 1}: without ${p.without.perSecond} healthy deliveries/s, p99 ${p.without.p99} ms, CPU ${p.without.cpuMs.toFixed(2)} ms each${p.without.balanced ? "" : " VOID"} | with ${p.with.perSecond}/s, p99 ${p.with.p99} ms, CPU ${p.with.cpuMs.toFixed(2)} ms${p.with.balanced ? "" : " VOID"} → throughput ${ratios[i]!.rate.toFixed(0)} %, p99 ${ratios[i]!.p99.toFixed(0)} %`,
              ),
              `    with / without over ${pairs.length} pairs: throughput ${spread("rate")}, p99 ${spread("p99")}, CPU (server + PostgreSQL) per healthy delivery ${spread("cpu")}`,
              `    goal (within 10 %: throughput ≥ 90 %, p99 ≤ 110 %): throughput ${rateMedian >= 90 ? "MET" : "NOT MET"} (${rateMedian.toFixed(0)} %), p99 ${p99Median <= 110 ? "MET" : "NOT MET"} (${p99Median.toFixed(0)} %)`,
            ]
          : []),
        `  machine load average at the end: ${loadavg()
          .map((l) => l.toFixed(1))
          .join(", ")} (${cpus().length} CPUs)`,
        "",
      ].join("\n"),
    );
    if (
      [...warmUp, ...rounds].some((r) => !r.balanced) ||
      (half && !half.balanced) ||
      pairs.some((p) => !p.with.balanced || !p.without.balanced)
    )
      process.exitCode = 1;
  } finally {
    await skiff.stop();
    receiver.kill();
    await db.drop();
  }
  // The default run (BENCH_WEBHOOKS_ONLY unset) ends with the instances' (bench/webhook-instances.ts).
  if (!process.env.BENCH_WEBHOOKS_ONLY) {
    const { instancesBench } = await import("./webhook-instances.ts");
    if (!(await instancesBench())) process.exitCode = 1;
  }
}
