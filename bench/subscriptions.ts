/**
 * `npm run bench:subscriptions`: live import status fan-out on a real server.
 * Starts Skiff in its own process on a scratch database (bench/harness.ts) and seeds 4 organizations, each with
 * an owner, an admin, two unrestricted members, two members limited by grants to the projects of the org's
 * seeded imports, and one member limited to an unrelated project (7 API keys per organization, 28 in all).
 * Then, for 0 (baseline), 100 and 1,000 graphql-ws subscribers to `siteImportUpdated` spread round-robin over
 * those keys (every 10th subscriber of an unrestricted key watches one import by id), it runs 10 imports and
 * deletes one seeded import per organization, and checks that every subscriber received exactly the events it
 * may see (its organization; grant-limited members only granted projects; `deleted` filtered by project) and no
 * other.
 * Prints, per subscriber count: deliveries (expected/received/missing/unexpected), latency from the status
 * change (its NOTIFY, heard on the bench's own LISTEN connection in a worker thread, bench/notify-listener.ts) to
 * the client's receipt, p50/p99 in ms; the spread of one event's receipts (first to last subscriber, ms); and the
 * server's SQL statements (its `skiff_db_statements_total` counter) per event above the 0-subscriber baseline,
 * with the raw totals (equal totals for 100 and 1,000 subscribers show the independence; the baseline itself
 * moves by a few statements between runs: background work of the server).
 * Each phase also prints the server's LISTEN connections on the events channel (one per instance, whatever the
 * number of subscribers). Then the idle phase: BENCH_IDLE (default 15,000) subscribed connections that receive
 * nothing are opened; it prints the rate at which new connections authenticated and subscribed (connections/s)
 * and the server's resident memory per idle connection (RSS after − before, ÷ connections). Goals (docs/performance.md):
 * 10,000 active subscribers at p99 ≤ 100 ms; 100,000 idle connections within 10 KB each; 1,000 authentications/s.
 * BENCH_SUBSCRIBERS (default "100,1000,10000") sets the subscriber counts, BENCH_CLIENT_THREADS (default 4) the
 * worker threads holding the subscribers (bench/subscriber-thread.ts), each on its own loopback address 127.0.0.x.
 * `npm run bench:subscriptions` raises the open-file limit to its hard maximum first (`ulimit -n`); the idle count is
 * capped below that limit (client sockets and the server's share it on one machine).
 */
import { readFileSync } from "node:fs";
import { Worker } from "node:worker_threads";
import { createKnex, migrateLatest } from "../src/db/knex.ts";
import { addMember, createOrg, createProjects, createRegistry, TEST_SECRET } from "../test/helpers/seed.ts";
import { scratchDatabase, startServerProcess } from "./harness.ts";

const counts = (process.env.BENCH_SUBSCRIBERS ?? "100,1000,10000")
  .split(",")
  .map(Number)
  .filter((n) => n > 0);
const IMPORTS = 10;
const ORGS = 4;
const PHASES = counts.length + 1; // the 0-subscriber baseline first
const THREADS = Number(process.env.BENCH_CLIENT_THREADS ?? 4);
/** Idle connections of the idle phase, capped below the open-file limit (`ulimit -n`, read by the shell). */
const IDLE = Math.min(Number(process.env.BENCH_IDLE ?? 15_000), openFileLimit() - 2000);
const QUERY = `subscription($id: ID) { siteImportUpdated(id: $id) { importId status siteImport { id name status } } }`;

/** One published status change, as the bench's LISTEN connection heard it. */
interface Heard {
  id: string;
  organizationId: string;
  status: string;
  projectId: string | null;
  at: number;
}

/** An API key and what its holder may see. */
interface Key {
  apiKey: string;
  organizationId: string;
  /** null: unrestricted; otherwise the granted project ids. */
  grants: Set<string> | null;
}

const db = await scratchDatabase();
const knex = createKnex(db.url, { max: 4 });
await migrateLatest(knex);
const server = await startServerProcess(db.url, {}, TEST_SECRET).catch(async (error) => {
  await knex.destroy();
  await db.drop();
  throw error;
});
const url = server.url;
const listener = new Worker(new URL("./notify-listener.ts", import.meta.url), { workerData: { url: db.url } });

/** Every siteImport event heard, in order, and waiters for one import's terminal status. */
const heard: Heard[] = [];
const settled = new Map<string, () => void>();
const terminal = new Set<string>();

async function post(path: string, apiKey: string, body: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${apiKey}` },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as Record<string, unknown>;
  if (res.status >= 400) throw new Error(`${path} answered ${res.status}: ${JSON.stringify(json)}`);
  return json;
}

/** Starts an import and resolves once its terminal status (success or failed) has been published. */
async function runImport(key: Key, name: string): Promise<string> {
  const body = await post("/api/site-import", key.apiKey, {
    organizationId: key.organizationId,
    name,
    source: { type: "docker", dockerImage: "nginx:1.27" },
  });
  const id = String(body.importId);
  if (!terminal.has(id)) await new Promise<void>((resolve) => settled.set(id, resolve));
  return id;
}

async function metric(name: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const line = text.split("\n").find((l) => l.startsWith(`${name} `));
  return Number(line?.split(" ")[1] ?? 0);
}

/** Waits until no job is due or running (jobs the imports enqueued would add statements to the next count). */
async function waitForJobs(): Promise<void> {
  for (let i = 0; i < 600; i++) {
    const [row] = await knex
      .raw(
        "select count(*)::int as n from graphile_worker.jobs where run_at <= now() + interval '1 second' and attempts < max_attempts",
      )
      .then((r: { rows: Array<{ n: number }> }) => r.rows);
    if (!row?.n) return;
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function waitForSubscriptions(n: number): Promise<void> {
  for (let i = 0; i < 1200; i++) {
    if ((await metric("skiff_graphql_subscriptions_open")) === n) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the server did not reach ${n} open subscriptions`);
}

/** One graphql-ws subscriber: its key, its filter and what it received (import id, status, receipt time). */
interface Subscriber {
  key: Key;
  byId: string | null;
  received: Array<{ id: string; status: string; at: number }>;
  errors: unknown[];
}

/** The client threads (bench/subscriber-thread.ts); subscriber j lives in thread j mod THREADS. */
const threads = Array.from(
  { length: THREADS },
  (_, t) =>
    new Worker(new URL("./subscriber-thread.ts", import.meta.url), {
      workerData: { url, query: QUERY, localAddress: `127.0.0.${2 + t}`, concurrency: 16 },
    }),
);

/** The soft open-file limit of this process (RLIMIT_NOFILE), from /proc; 1024 when unknown. */
function openFileLimit(): number {
  try {
    const line = readFileSync("/proc/self/limits", "utf8")
      .split("\n")
      .find((l) => l.startsWith("Max open files"));
    return Number(line?.split(/\s+/)[3]) || 1024;
  } catch {
    return 1024;
  }
}

/** The server's connections listening on the events channel (LISTEN leaves `listen "skiff_events"` as its query). */
async function listenConnections(): Promise<number> {
  const { rows } = await knex.raw<{ rows: Array<{ n: number }> }>(
    "select count(*)::int as n from pg_stat_activity where datname = current_database() and query ilike 'listen%skiff_events%' and application_name <> 'skiff-bench-listener'",
  );
  return rows[0]?.n ?? 0;
}

/** Sends `msg` to every client thread and resolves with their answers (messages of type `answer`). */
function ask<T>(msg: (thread: number) => unknown, answer: string): Promise<T[]> {
  return Promise.all(
    threads.map(
      (thread, t) =>
        new Promise<T>((resolve, reject) => {
          const onMessage = (reply: { type: string; error?: string }) => {
            if (reply.type === "failed") reject(new Error(reply.error));
            if (reply.type !== answer && reply.type !== "failed") return;
            thread.off("message", onMessage);
            resolve(reply as T);
          };
          thread.on("message", onMessage);
          thread.postMessage(msg(t));
        }),
    ),
  );
}

/** Whether `key` (watching `byId`) may see event `e`, by today's rules; `projectOf` gives a record's project. */
function visible(key: Key, byId: string | null, e: Heard, projectOf: Map<string, string | null>): boolean {
  if (e.organizationId !== key.organizationId) return false;
  if (byId && e.id !== byId) return false;
  if (!key.grants) return true;
  const projectId = e.status === "deleted" ? e.projectId : (projectOf.get(e.id) ?? null);
  return projectId !== null && key.grants.has(projectId);
}

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

try {
  await new Promise<void>((resolve, reject) => {
    listener.once("error", reject);
    listener.on("message", (p: Record<string, unknown> | "ready") => {
      if (p === "ready") return resolve();
      onHeard(p);
    });
  });
  function onHeard(p: Record<string, unknown>): void {
    const e: Heard = {
      id: String(p.id),
      organizationId: String(p.organizationId),
      status: String(p.status),
      projectId: typeof p.projectId === "string" ? p.projectId : null,
      at: Number(p.at),
    };
    heard.push(e);
    if (e.status === "success" || e.status === "failed") {
      terminal.add(e.id);
      settled.get(e.id)?.();
    }
  }

  // Seed: organizations, one import per organization and phase (deleted during that phase), members.
  const orgs: Array<{ owner: Key; keys: Key[]; seeded: string[] }> = [];
  for (let o = 0; o < ORGS; o++) {
    const org = await createOrg(knex);
    await createRegistry(knex, org.organizationId);
    const owner: Key = { apiKey: org.owner.apiKey, organizationId: org.organizationId, grants: null };
    const seeded: string[] = [];
    for (let p = 0; p < PHASES; p++) seeded.push(await runImport(owner, `seed-${o}-${p}`));
    const projects = (await knex("site_imports").whereIn("id", seeded).pluck("project_id")) as string[];
    const [unrelated] = await createProjects(knex, org.organizationId, 1);
    const key = async (role: "admin" | "member", projectIds?: string[]): Promise<Key> => {
      const m = await addMember(knex, org.organizationId, role, { projectIds });
      return { apiKey: m.apiKey, organizationId: org.organizationId, grants: projectIds ? new Set(projectIds) : null };
    };
    const keys = [
      owner,
      await key("admin"),
      await key("member"),
      await key("member"),
      await key("member", projects),
      await key("member", projects),
      await key("member", [unrelated!]),
    ];
    orgs.push({ owner, keys, seeded });
  }
  const keys = orgs.flatMap((o) => o.keys);

  const lines: string[] = [];
  // Idle first (the server's heap has not yet grown for the active phases, so RSS grows with the connections):
  // IDLE subscribed connections that get no event; authentication rate and resident memory per connection.
  if (IDLE > 0) {
    await new Promise((r) => setTimeout(r, 2000));
    const rssBefore = await metric("process_resident_memory_bytes");
    const heapBefore = await metric("nodejs_heap_size_used_bytes");
    const statementsBefore = await metric("skiff_db_statements_total");
    const cpuBefore = await metric("process_cpu_seconds_total");
    const started = performance.now();
    await ask(
      (t) => ({
        type: "open",
        subs: Array.from({ length: IDLE }, (_, index) => ({
          index,
          apiKey: keys[index % keys.length]!.apiKey,
          byId: null,
        })).filter((s) => s.index % THREADS === t),
      }),
      "opened",
    );
    await waitForSubscriptions(IDLE);
    const seconds = (performance.now() - started) / 1000;
    const cpuMs = (((await metric("process_cpu_seconds_total")) - cpuBefore) * 1000) / IDLE;
    const statements = ((await metric("skiff_db_statements_total")) - statementsBefore) / IDLE;
    await new Promise((r) => setTimeout(r, 2000));
    const rssAfter = await metric("process_resident_memory_bytes");
    const heapAfter = await metric("nodejs_heap_size_used_bytes");
    const listening = await listenConnections();
    lines.push(
      `${String(IDLE).padStart(5)} idle subscribed connections  authenticated and subscribed in ${seconds.toFixed(1)} s (${Math.round(IDLE / seconds)} new connections/s; server CPU ${cpuMs.toFixed(2)} ms and ${statements.toFixed(1)} SQL statements per connection, i.e. ${Math.round(1000 / cpuMs)} connections/s per core)  server RSS ${(rssBefore / 2 ** 20).toFixed(0)} → ${(rssAfter / 2 ** 20).toFixed(0)} MiB: ${((rssAfter - rssBefore) / IDLE / 1024).toFixed(1)} KiB per connection (of which V8 heap in use ${((heapAfter - heapBefore) / IDLE / 1024).toFixed(1)} KiB)  LISTEN connections ${listening}`,
    );
    await ask(() => ({ type: "close" }), "closed");
    await waitForSubscriptions(0);
  }
  let baseline: { statements: number; events: number; cpu: number } | null = null;
  for (const [phase, n] of [0, ...counts].entries()) {
    // Subscribers, spread over the client threads.
    const subscribers: Subscriber[] = [];
    for (let j = 0; j < n; j++) {
      const key = keys[j % keys.length]!;
      const org = orgs.find((o) => o.owner.organizationId === key.organizationId)!;
      subscribers.push({
        key,
        byId: j % 10 === 9 && !key.grants ? org.seeded[phase]! : null,
        received: [],
        errors: [],
      });
    }
    await ask(
      (t) => ({
        type: "open",
        subs: subscribers
          .map((s, index) => ({ index, apiKey: s.key.apiKey, byId: s.byId }))
          .filter((s) => s.index % THREADS === t),
      }),
      "opened",
    );
    await waitForSubscriptions(n);
    const listening = await listenConnections();

    await waitForJobs();
    const from = heard.length;
    const before = await metric("skiff_db_statements_total");
    const cpuBefore = await metric("process_cpu_seconds_total");
    for (let i = 0; i < IMPORTS; i++) await runImport(orgs[i % ORGS]!.owner, `bench-${phase}-${i}`);
    for (const org of orgs) {
      await post("/graphql", org.owner.apiKey, {
        query: "mutation($id: ID!) { deleteSiteImport(id: $id) { id } }",
        variables: { id: org.seeded[phase] },
      });
    }
    // Wait for the last deletions to be heard (at most 30 s), then for every expected delivery (at most 30 s).
    // (The deletions are the last events: once all of them are heard, every event of the run is.)
    const deletionsHeard = () => heard.slice(from).filter((e) => e.status === "deleted").length;
    for (let i = 0; i < 1500 && deletionsHeard() < ORGS; i++) await new Promise((r) => setTimeout(r, 20));
    const events = heard.slice(from);
    const importIds = [...new Set(events.map((e) => e.id))];
    const projectOf = new Map<string, string | null>(
      (await knex("site_imports").whereIn("id", importIds).select("id", "project_id")).map(
        (r: { id: string; projectId: string | null }) => [r.id, r.projectId],
      ),
    );
    const expectedOf = (s: Subscriber) => events.filter((e) => visible(s.key, s.byId, e, projectOf));
    const expectedTotal = subscribers.reduce((sum, s) => sum + expectedOf(s).length, 0);
    const deadline = Date.now() + 30_000;
    const received = async () =>
      (await ask<{ n: number }>(() => ({ type: "count" }), "count")).reduce((sum, c) => sum + c.n, 0);
    while (Date.now() < deadline && (await received()) < expectedTotal) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 300)); // anything unexpected still in flight
    type Collected = { subs: Array<{ index: number; received: Subscriber["received"]; errors: unknown[] }> };
    for (const reply of await ask<Collected>(() => ({ type: "collect" }), "received")) {
      for (const got of reply.subs)
        Object.assign(subscribers[got.index]!, { received: got.received, errors: got.errors });
    }
    await waitForJobs();
    const after = await metric("skiff_db_statements_total");
    const cpu = (await metric("process_cpu_seconds_total")) - cpuBefore;

    // Match each subscriber's receipts to the events it may see, per import in order.
    const latencies: number[] = [];
    const perEvent = new Map<Heard, number[]>();
    let missing = 0;
    let unexpected = 0;
    let errors = 0;
    for (const s of subscribers) {
      errors += s.errors.length;
      const pending = new Map<string, Heard[]>();
      for (const e of expectedOf(s)) pending.set(e.id, [...(pending.get(e.id) ?? []), e]);
      for (const r of s.received) {
        const e = pending.get(r.id)?.shift();
        if (!e || e.status !== r.status) unexpected++;
        else {
          latencies.push(r.at - e.at);
          perEvent.set(e, [...(perEvent.get(e) ?? []), r.at]);
        }
      }
      for (const left of pending.values()) missing += left.length;
    }
    latencies.sort((a, b) => a - b);
    // Fan-out spread: first to last receipt of one event, i.e. the cost of serving its subscribers one by one.
    const spreads = [...perEvent.values()].map((at) => Math.max(...at) - Math.min(...at)).sort((a, b) => a - b);
    const statements = after - before;
    if (n === 0) baseline = { statements, events: events.length, cpu };
    const cpuPerEvent = baseline ? ((cpu - baseline.cpu) * 1000) / Math.max(1, events.length) : Number.NaN;
    const extra = baseline ? (statements - baseline.statements) / Math.max(1, events.length) : Number.NaN;
    lines.push(
      n === 0
        ? `${String(n).padStart(5)} subscribers  ${String(events.length).padStart(3)} events  server statements ${statements} (baseline: the imports themselves)`
        : `${String(n).padStart(5)} subscribers  ${String(events.length).padStart(3)} events  deliveries ${latencies.length}/${expectedTotal} (missing ${missing}, unexpected ${unexpected}, errors ${errors})  latency p50 ${percentile(latencies, 50).toFixed(1)} ms  p99 ${percentile(latencies, 99).toFixed(1)} ms  spread first→last subscriber p50 ${percentile(spreads, 50).toFixed(1)} ms max ${percentile(spreads, 100).toFixed(1)} ms  SQL statements per event ${extra.toFixed(1)} (server total ${statements})  fan-out CPU per event (server CPU above the 0-subscriber run; noise can make it negative) ${cpuPerEvent.toFixed(1)} ms  LISTEN connections ${listening}`,
    );
    await ask(() => ({ type: "close" }), "closed");
    await waitForSubscriptions(0);
  }

  console.log(
    `\nSkiff live status fan-out benchmark: siteImportUpdated over graphql-ws, ${IMPORTS} imports + ${ORGS} deletions per run, ${keys.length} API keys in ${ORGS} organizations, ${db.label}`,
  );
  for (const line of lines) console.log(line);
} finally {
  await Promise.all(threads.map((t) => t.terminate()));
  listener.postMessage("stop");
  await new Promise((resolve) => listener.once("exit", resolve));
  await server.stop();
  await knex.destroy();
  await db.drop();
}
