/**
 * Load runs of `npm run bench:peer`: one request against one server (a target), a timed autocannon run of it with
 * the server's Node CPU (its probe) and its PostgreSQL backends' CPU (bench/pg-cpu.ts) sampled before and after,
 * and the SQL statements one request costs.
 */
import autocannon from "autocannon";
import { type PanelServer, probeStats } from "./peer-servers.ts";
import { backendCpuDelta, type PgCpuSampler } from "./pg-cpu.ts";

/** One request against one server. */
export interface Target {
  server: PanelServer;
  request: { url: string; method: "GET" | "POST"; headers: Record<string, string>; body?: string };
}

/** A GraphQL POST of `query` with `variables` to `server`'s /graphql. */
export function graphqlTarget(
  server: PanelServer,
  query: string,
  variables: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Target {
  return {
    server,
    request: {
      url: `${server.url}/graphql`,
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify({ query, variables }),
    },
  };
}

/** One timed run's figures (times in milliseconds; CPU per request answered). */
export interface Run {
  rps: number;
  p50: number;
  p99: number;
  /** The server process's user + system CPU per request. */
  nodeCpuMs: number;
  /** Its PostgreSQL backends' CPU per request; null when not readable (bench/pg-cpu.ts). */
  pgCpuMs: number | null;
  /** The server's RSS after the run, MB. */
  rssMb: number;
  /** Errors, non-2xx answers and timeouts. */
  errors: number;
}

/** Runs `target` with `connections` connections for `duration` seconds and measures it. */
export async function timed(target: Target, connections: number, duration: number, pg: PgCpuSampler): Promise<Run> {
  const { server } = target;
  const before = await probeStats(server.process);
  const pgBefore = await pg.sample(server.appName);
  const r = await autocannon({ ...target.request, connections, duration });
  // autocannon does not wait for its last answers: let the server finish them before reading its CPU.
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const after = await probeStats(server.process);
  const pgMs = backendCpuDelta(pgBefore, await pg.sample(server.appName));
  const served = Math.max(r.requests.sent, r.requests.total, 1);
  return {
    rps: r.requests.total / duration,
    p50: r.latency.p50,
    p99: r.latency.p99,
    nodeCpuMs: (after.cpuMicros - before.cpuMicros) / 1000 / served,
    pgCpuMs: pgMs === null ? null : pgMs / served,
    rssMb: after.rssBytes / 1024 / 1024,
    errors: r.errors + r.non2xx + r.timeouts,
  };
}

/** Drives `target` for `seconds` at 8 connections (warm-up: JIT, pools, caches). */
export async function warmUp(target: Target, seconds: number): Promise<void> {
  await autocannon({ ...target.request, connections: 8, duration: seconds });
}

/**
 * Sends `target`'s request once. @returns the parsed JSON body.
 * @throws Error with the status and body when the answer is not 200 or holds `errors`.
 */
export async function call(target: Target): Promise<unknown> {
  const { url, method, headers, body } = target.request;
  const res = await fetch(url, { method, headers, body });
  const json = (await res.json()) as { errors?: unknown };
  if (res.status !== 200 || json.errors) throw new Error(`${res.status} ${JSON.stringify(json).slice(0, 2000)}`);
  return json;
}

/**
 * SQL statements per request, from 20 sequential requests, less the process's background statements (Skiff's job
 * runner polls) at the rate counted over 2 idle seconds just before.
 */
export async function statementsPerRequest(target: Target): Promise<number> {
  const n = 20;
  const { process: child } = target.server;
  const idle = await probeStats(child);
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const before = await probeStats(child);
  const backgroundPerMs = (before.statements - idle.statements) / 2000;
  const started = performance.now();
  for (let i = 0; i < n; i++) await call(target);
  const after = await probeStats(child);
  const background = backgroundPerMs * (performance.now() - started);
  return Math.max(0, after.statements - before.statements - background) / n;
}
