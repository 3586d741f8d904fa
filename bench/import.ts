/**
 * `npm run bench:import`: throughput and latency of the site import REST paths, and of webhook creation, on a real
 * server. Starts Skiff in its own process on a scratch database (bench/harness.ts), seeds an organization on the
 * unlimited plan with a container registry and an API key, then drives with autocannon at 100 connections:
 *   1. POST /api/site-import — each request a new site (docker source, postgres database, domain, one variable);
 *   2. GET /api/site-import — the default page of 50 records;
 *   3. POST /api/v1/orgs/:org_id/webhooks — BENCH_WEBHOOK_ORGS (default 100) organizations × 20 creates each (the
 *      per-organization limit is 20 an hour), at BENCH_WEBHOOK_CONNECTIONS (default 32) connections.
 * Prints requests per second and p50/p99 latency in milliseconds, the audit log's share, and the CPU per webhook
 * create (the server process and its PostgreSQL backends, bench/pg-cpu.ts). BENCH_SECONDS (default 10) sets the
 * duration of runs 1 and 2, BENCH_CONNECTIONS (default 100) their connections. BENCH_BEFORE=<git ref> runs the same
 * load against that commit too (bench/before-checkout.ts; each server on its own scratch database, BENCH_ROUNDS
 * rounds, default 1, before first in even rounds and after first in odd ones) and prints after/before ratios, e.g.
 * the audit log's cost. Scratch databases are
 * dropped at the end. `npm run bench:import` then runs the bulk CLI case (bench/import-bulk.ts).
 */
import autocannon from "autocannon";
import { createKnex, migrateLatest } from "../src/db/knex.ts";
import { createOrg, createRegistry, TEST_SECRET } from "../test/helpers/seed.ts";
import { type BeforeCheckout, checkoutBefore } from "./before-checkout.ts";
import { histogramTotals, scratchDatabase, startServerProcess } from "./harness.ts";
import { backendCpuDelta, pgCpuSampler, processCpuMs } from "./pg-cpu.ts";

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 100);
const webhookOrgs = Number(process.env.BENCH_WEBHOOK_ORGS ?? 100);
const webhookConnections = Number(process.env.BENCH_WEBHOOK_CONNECTIONS ?? 32);
const rounds = Number(process.env.BENCH_ROUNDS ?? 1);
const BEFORE = process.env.BENCH_BEFORE;

/** One run's figures: requests per second and the autocannon result of each load. */
interface Figures {
  imports: { perSecond: number; result: autocannon.Result; audit: AuditShare | null };
  list: { perSecond: number; result: autocannon.Result };
  webhooks: {
    perSecond: number;
    result: autocannon.Result;
    audit: AuditShare | null;
    /** CPU milliseconds per create: the server process, its PostgreSQL backends (null when not readable). */
    cpu: { nodeMs: number | null; pgMs: number | null };
  };
  succeeded: number;
}

/**
 * The audit log's share of one load, from the server's /metrics read before and after it: seconds spent writing
 * mutation entries (`skiff_audit_write_seconds`) over the seconds the route's requests took
 * (`skiff_http_request_duration_seconds`), and entries per request. Null when the server has no such metric (a
 * checkout before it).
 */
interface AuditShare {
  writeSeconds: number;
  requestSeconds: number;
  entries: number;
  requests: number;
}

/** Reads /metrics of `url`: the audit writes of mutations, and the requests of `method route`. */
async function auditTotals(url: string, method: string, route: string) {
  const text = await (await fetch(`${url}/metrics`)).text();
  if (!text.includes("skiff_audit_write_seconds")) return null;
  return {
    audit: histogramTotals(text, "skiff_audit_write_seconds", { kind: "mutation" }),
    requests: histogramTotals(text, "skiff_http_request_duration_seconds", { method, route }),
  };
}

/** The {@link AuditShare} between two readings of {@link auditTotals}. */
function auditShare(
  before: Awaited<ReturnType<typeof auditTotals>>,
  after: Awaited<ReturnType<typeof auditTotals>>,
): AuditShare | null {
  if (!before || !after) return null;
  return {
    writeSeconds: after.audit.sum - before.audit.sum,
    requestSeconds: after.requests.sum - before.requests.sum,
    entries: after.audit.count - before.audit.count,
    requests: after.requests.count - before.requests.count,
  };
}

/** Servers started so far (each names its PostgreSQL connections apart: bench/pg-cpu.ts). */
let runs = 0;

/** Runs the three loads against a server started in `cwd` (default: this checkout) on a scratch database. */
async function runOnce(cwd?: string): Promise<Figures & { label: string }> {
  const db = await scratchDatabase();
  const knex = createKnex(db.url, { max: 4 });
  await migrateLatest(knex);
  const appName = `bench-import-${process.pid}-${runs++}`;
  const server = await startServerProcess(
    db.url,
    { SKIFF_OUTBOUND_ALLOW: "127.0.0.1", PGAPPNAME: appName },
    TEST_SECRET,
    { cwd },
  );
  const pgCpu = await pgCpuSampler(db.url);
  const url = server.url;
  try {
    const org = await createOrg(knex);
    await createRegistry(knex, org.organizationId);
    const headers = { "content-type": "application/json", authorization: `Bearer ${org.owner.apiKey}` };
    let n = 0;

    const importsRoute = ["POST", "/api/site-import"] as const;
    const beforeImports = await auditTotals(url, ...importsRoute);
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
    const importsAudit = auditShare(beforeImports, await auditTotals(url, ...importsRoute));

    const list = await autocannon({
      url: `${url}/api/site-import`,
      connections,
      duration: seconds,
      headers: { authorization: headers.authorization },
    });

    // Webhook creation: 20 per organization (its hourly limit), the organizations taken in turn.
    const orgs: Array<{ number: number; key: string }> = [];
    for (let i = 0; i < webhookOrgs; i++) {
      const o = await createOrg(knex);
      const row = await knex("organizations").where({ id: o.organizationId }).first("database_id");
      orgs.push({ number: row.databaseId as number, key: o.owner.apiKey });
    }
    let w = 0;
    const webhooksRoute = ["POST", "/api/v1/orgs/:org_id/webhooks"] as const;
    const beforeWebhooks = await auditTotals(url, ...webhooksRoute);
    const nodeBefore = processCpuMs(server.process.pid!);
    const pgBefore = await pgCpu.sample(appName);
    const webhooks = await autocannon({
      url,
      connections: webhookConnections,
      amount: webhookOrgs * 20,
      requests: [
        {
          method: "POST",
          setupRequest: (req) => {
            const o = orgs[w++ % orgs.length]!;
            return {
              ...req,
              path: `/api/v1/orgs/${o.number}/webhooks`,
              headers: { "content-type": "application/json", authorization: `Bearer ${o.key}` },
              body: JSON.stringify({ url: "https://127.0.0.1:9/bench", events: ["ping"], is_active: false }),
            };
          },
        },
      ],
    });
    // autocannon does not wait for its last answers: let the server finish them before reading its CPU.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const nodeAfter = processCpuMs(server.process.pid!);
    const pgMs = backendCpuDelta(pgBefore, await pgCpu.sample(appName));
    const creates = Math.max(1, webhooks["2xx"]);
    const cpu = {
      nodeMs: nodeBefore === null || nodeAfter === null ? null : (nodeAfter - nodeBefore) / creates,
      pgMs: pgMs === null ? null : pgMs / creates,
    };
    const webhooksAudit = auditShare(beforeWebhooks, await auditTotals(url, ...webhooksRoute));
    return {
      label: db.label,
      imports: { perSecond: imports["2xx"] / imports.duration, result: imports, audit: importsAudit },
      list: { perSecond: list["2xx"] / list.duration, result: list },
      webhooks: { perSecond: webhooks["2xx"] / webhooks.duration, result: webhooks, audit: webhooksAudit, cpu },
      succeeded: Number(succeeded?.n ?? 0),
    };
  } finally {
    await pgCpu.close();
    await server.stop();
    await knex.destroy();
    await db.drop();
  }
}

const line = (label: string, r: autocannon.Result, perSecond: number) =>
  `${label.padEnd(34)} ${perSecond.toFixed(1).padStart(8)}/s   p50 ${String(r.latency.p50).padStart(5)} ms   p99 ${String(
    r.latency.p99,
  ).padStart(5)} ms   2xx ${r["2xx"]}   non-2xx ${r.non2xx}   errors ${r.errors}`;

/** Prints one run's figures, each label prefixed with `tag`. */
function print(tag: string, f: Figures): void {
  console.log(line(`${tag}POST /api/site-import`, f.imports.result, f.imports.perSecond));
  console.log(line(`${tag}GET /api/site-import`, f.list.result, f.list.perSecond));
  console.log(line(`${tag}POST …/webhooks (create)`, f.webhooks.result, f.webhooks.perSecond));
  console.log(`${tag}imports recorded as success: ${f.succeeded}`);
  const { nodeMs, pgMs } = f.webhooks.cpu;
  console.log(
    `${tag}CPU per webhook create: server ${nodeMs?.toFixed(3) ?? "n/a"} ms, PostgreSQL backends ${pgMs?.toFixed(3) ?? "n/a"} ms`,
  );
  for (const [name, share] of [
    ["importSite", f.imports.audit],
    ["webhook create", f.webhooks.audit],
  ] as const) {
    if (!share) continue;
    const perRequest = (1000 * share.requestSeconds) / Math.max(1, share.requests);
    if (share.entries === 0 && share.requests > 0) {
      // Each entry written by its change's own statement (writeWithAuditEntry): no time of its own to compare.
      console.log(
        `${tag}audit write on ${name}: in the change's own statement; ${perRequest.toFixed(2)} ms of server time ` +
          "per request (compare with BENCH_BEFORE)",
      );
      continue;
    }
    const percent = (100 * share.writeSeconds) / share.requestSeconds;
    console.log(
      `${tag}audit write on ${name}: ${percent.toFixed(2)} % of the requests' server time (goal ≤ 5 %): ` +
        `${share.entries} entries in ${(share.writeSeconds * 1000).toFixed(0)} ms, ${share.requests} requests in ` +
        `${(share.requestSeconds * 1000).toFixed(0)} ms (${((1000 * share.writeSeconds) / Math.max(1, share.entries)).toFixed(2)} ms per entry, ` +
        `${perRequest.toFixed(2)} ms per request)`,
    );
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

let checkout: BeforeCheckout | null = null;
try {
  if (BEFORE) {
    checkout = checkoutBefore(BEFORE);
    if (checkout.packageJsonDiffers) console.warn(`warning: ${BEFORE}'s package.json differs from this checkout's`);
  }
  const before: Figures[] = [];
  const after: Figures[] = [];
  let label = "";
  for (let round = 0; round < (checkout ? rounds : 1); round++) {
    // Before first in even rounds, after first in odd ones: neither gains from going first.
    if (checkout && round % 2 === 0) before.push(await runOnce(checkout.dir));
    const run = await runOnce();
    label = run.label;
    after.push(run);
    if (checkout && round % 2 === 1) before.push(await runOnce(checkout.dir));
  }
  console.log(
    `\nSkiff site import and webhook create benchmark: ${connections} connections, ${seconds} s per run, ${label}`,
  );
  for (const [i, f] of after.entries()) {
    if (checkout) print(`before ${checkout.commit} #${i + 1}: `, before[i]!);
    print(checkout ? `after #${i + 1}: ` : "", f);
  }
  if (checkout) {
    const ratio = (pick: (f: Figures) => number) => (median(after.map(pick)) / median(before.map(pick))).toFixed(3);
    console.log(
      `after/before throughput (median of ${after.length}): imports ${ratio((f) => f.imports.perSecond)}, ` +
        `list ${ratio((f) => f.list.perSecond)}, webhook create ${ratio((f) => f.webhooks.perSecond)}`,
    );
    // A webhook create load is a fixed number of requests sent as fast as they are answered: its server time per
    // request is the comparison (its requests per second round to the load's whole seconds).
    const serverTime = (f: Figures) =>
      f.webhooks.audit ? f.webhooks.audit.requestSeconds / f.webhooks.audit.requests : NaN;
    console.log(`after/before server time per webhook create (median of ${after.length}): ${ratio(serverTime)}`);
    const cpuTotal = (f: Figures) => (f.webhooks.cpu.nodeMs ?? NaN) + (f.webhooks.cpu.pgMs ?? NaN);
    console.log(
      `after/before CPU (server + PostgreSQL) per webhook create (median of ${after.length}): ${ratio(cpuTotal)}`,
    );
  }
} finally {
  checkout?.remove();
}
