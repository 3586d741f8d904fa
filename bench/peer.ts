/**
 * Side-by-side benchmark of the nested project tree (`npm run bench:peer`, issue 15): seeds 50 projects ×
 * 3 environments × 5 applications × 3 deployments + a domain each in a scratch database, serves the tree from
 * Skiff (API key) and from PostGraphile V5 (Amber preset, no auth, bench/peer/server.mjs) on the same
 * tables, each in its own process with bench/peer-probe.ts preloaded (statement counter, CPU, RSS over IPC).
 * Both answers are normalised and checked equal before timing; then autocannon drives each at 1 and 32
 * connections, alternating, BENCH_ROUNDS rounds (default 3) of BENCH_DURATION seconds (default 5), and the medians
 * and Skiff/PostGraphile ratios of requests/s, p50, p99, server CPU per request and SQL statements per request are
 * printed; also `GET /api/agent/projects` against the same operation on /graphql (throughput ratio) and Skiff's
 * RSS after the 32-connection runs. Ports: Skiff BENCH_PEER_PORT (default 46001), PostGraphile the next one.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import autocannon from "autocannon";
import { createKnex, migrateLatest } from "../src/db/knex.ts";
import { createAgentTokenFor, createOrg, createProjects, TEST_SECRET } from "../test/helpers/seed.ts";
import { scratchDatabase, startServerProcess } from "./harness.ts";

const PROJECTS = 50;
const DURATION = Number(process.env.BENCH_DURATION ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const PORT = Number(process.env.BENCH_PEER_PORT ?? 46001);
const PROBE = ["--import", "./bench/peer-probe.ts"];

const SKIFF_TREE = `query Tree { projects(first: 100) { edges { node { id name
  environments { id name applications { id name appName applicationStatus
    deployments(first: 3) { id status title createdAt } domains { host port https } } } } } } }`;

const PEER_TREE = `query Tree { allProjects(first: 100, orderBy: PRIMARY_KEY_ASC) { nodes { rowId name
  environmentsByProjectId(orderBy: PRIMARY_KEY_ASC) { nodes { rowId name
    applicationsByEnvironmentId(orderBy: PRIMARY_KEY_ASC) { nodes { rowId name appName applicationStatus
      deploymentsByApplicationId(first: 3, orderBy: [CREATED_AT_DESC, PRIMARY_KEY_DESC]) { nodes { rowId status title createdAt } }
      domainsByApplicationId(orderBy: PRIMARY_KEY_ASC) { nodes { host port https } } } } } } } } }`;

/** The agent API's operation (src/modules/agent/agent.rest.ts), sent to /graphql for the REST ratio. */
const AGENT_PROJECTS = `query AgentProjects($first: Int!, $after: String) { projects(first: $first, after: $after) {
  pageInfo { hasNextPage endCursor }
  edges { node { id name description createdAt
    environments { id name applications { id name appName applicationStatus createdAt } } } } } }`;

/** Figures a probe reports. */
interface Stats {
  statements: number;
  cpuMicros: number;
  rssBytes: number;
}

/** Asks a probed process for its figures. */
async function stats(child: ChildProcess): Promise<Stats> {
  const answer = once(child, "message") as Promise<[Stats]>;
  child.send("stats");
  return (await answer)[0];
}

/** One load target: how autocannon calls it and which process serves it. */
interface Target {
  name: string;
  process: ChildProcess;
  request: { url: string; method: "GET" | "POST"; headers: Record<string, string>; body?: string };
}

/** One timed run's figures. */
interface Run {
  rps: number;
  p50: number;
  p99: number;
  cpuMs: number;
  rssMb: number;
  errors: number;
}

async function timed(target: Target, connections: number, duration = DURATION): Promise<Run> {
  const before = await stats(target.process);
  const r = await autocannon({ ...target.request, connections, duration });
  // autocannon does not wait for its last answers: let the server finish them before reading its CPU.
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const after = await stats(target.process);
  const served = Math.max(r.requests.sent, r.requests.total, 1);
  return {
    rps: r.requests.total / duration,
    p50: r.latency.p50,
    p99: r.latency.p99,
    cpuMs: (after.cpuMicros - before.cpuMicros) / 1000 / served,
    rssMb: after.rssBytes / 1024 / 1024,
    errors: r.errors + r.non2xx + r.timeouts,
  };
}

/**
 * SQL statements per request, from 20 sequential requests, less the process's background statements (Skiff's job
 * runner polls) at the rate counted over 2 idle seconds just before.
 */
async function statementsPerRequest(target: Target): Promise<number> {
  const n = 20;
  const idle = await stats(target.process);
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const before = await stats(target.process);
  const backgroundPerMs = (before.statements - idle.statements) / 2000;
  const started = performance.now();
  for (let i = 0; i < n; i++) await call(target);
  const after = await stats(target.process);
  const background = backgroundPerMs * (performance.now() - started);
  return Math.max(0, after.statements - before.statements - background) / n;
}

async function call(target: Target): Promise<unknown> {
  const { url, method, headers, body } = target.request;
  const res = await fetch(url, { method, headers, body });
  const json = (await res.json()) as { errors?: unknown };
  if (res.status !== 200 || json.errors) throw new Error(`${target.name}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

type Tree = Array<{ id: string; name: string; environments: unknown[] }>;

/** Both answers in one shape: ids, names and statuses as they are, times as epoch milliseconds. */
function normaliseSkiff(json: unknown): Tree {
  type D = { id: string; status: string; title: string; createdAt: string };
  type A = {
    id: string;
    name: string;
    appName: string;
    applicationStatus: string | null;
    deployments: D[];
    domains: unknown[];
  };
  type E = { id: string; name: string; applications: A[] };
  type P = { id: string; name: string; environments: E[] };
  const edges = (json as { data: { projects: { edges: Array<{ node: P }> } } }).data.projects.edges;
  return edges.map(({ node: p }) => ({
    id: p.id,
    name: p.name,
    environments: p.environments.map((e) => ({
      id: e.id,
      name: e.name,
      applications: e.applications.map((a) => ({
        id: a.id,
        name: a.name,
        appName: a.appName,
        applicationStatus: a.applicationStatus,
        deployments: a.deployments.map((d) => ({ ...d, createdAt: Date.parse(d.createdAt) })),
        domains: a.domains,
      })),
    })),
  }));
}

function normalisePeer(json: unknown): Tree {
  type N<T> = { nodes: T[] };
  type D = { rowId: string; status: string; title: string; createdAt: string };
  type A = {
    rowId: string;
    name: string;
    appName: string;
    applicationStatus: string | null;
    deploymentsByApplicationId: N<D>;
    domainsByApplicationId: N<unknown>;
  };
  type E = { rowId: string; name: string; applicationsByEnvironmentId: N<A> };
  type P = { rowId: string; name: string; environmentsByProjectId: N<E> };
  return (json as { data: { allProjects: N<P> } }).data.allProjects.nodes.map((p) => ({
    id: p.rowId,
    name: p.name,
    environments: p.environmentsByProjectId.nodes.map((e) => ({
      id: e.rowId,
      name: e.name,
      applications: e.applicationsByEnvironmentId.nodes.map((a) => ({
        id: a.rowId,
        name: a.name,
        appName: a.appName,
        applicationStatus: a.applicationStatus,
        deployments: a.deploymentsByApplicationId.nodes.map(({ rowId, ...d }) => ({
          id: rowId,
          ...d,
          createdAt: Date.parse(d.createdAt),
        })),
        domains: a.domainsByApplicationId.nodes,
      })),
    })),
  }));
}

async function startPeer(databaseUrl: string, port: number): Promise<{ process: ChildProcess; stop(): Promise<void> }> {
  const child = spawn(process.execPath, [...PROBE, "bench/peer/server.mjs"], {
    env: { ...process.env, DATABASE_URL: databaseUrl, PORT: String(port), NODE_ENV: "production" },
    stdio: ["ignore", "pipe", "inherit", "ipc"],
  });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("ready")) resolve();
    });
    child.once("exit", (code) => reject(new Error(`PostGraphile exited (${code})`)));
  });
  return {
    process: child,
    async stop() {
      child.kill("SIGTERM");
      await exited;
    },
  };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const fmt = (x: number, digits = 2) => x.toFixed(digits);

async function main(): Promise<void> {
  const db = await scratchDatabase();
  try {
    const knex = createKnex(db.url);
    await migrateLatest(knex);
    const org = await createOrg(knex);
    const shape = {
      environments: 3,
      applicationsPerEnvironment: 5,
      deploymentsPerApplication: 3,
      domainsPerApplication: 1,
    };
    await createProjects(knex, org.organizationId, PROJECTS, shape);
    const agentToken = await createAgentTokenFor(knex, org.organizationId, org.owner);
    await knex.raw("analyze");
    await knex.destroy();

    const skiff = await startServerProcess(
      db.url,
      {
        SKIFF_AGENT_RATE_LIMIT: "1000000000",
        SKIFF_MAX_QUERY_COST: "100000000",
        SKIFF_EXECUTION_TIMEOUT_MS: "600000",
        // As operators run it (graphql-js skips its development-only checks); PostGraphile runs so too.
        NODE_ENV: "production",
      },
      TEST_SECRET,
      { nodeArgs: PROBE, port: PORT },
    );
    const peer = await startPeer(db.url, PORT + 1).catch(async (e) => {
      await skiff.stop();
      throw e;
    });
    try {
      const graphql = (url: string, query: string, headers: Record<string, string> = {}, variables = {}) => ({
        url: `${url}/graphql`,
        method: "POST" as const,
        headers: { "content-type": "application/json", ...headers },
        body: JSON.stringify({ query, variables }),
      });
      const skiffTree: Target = {
        name: "Skiff",
        process: skiff.process,
        request: graphql(skiff.url, SKIFF_TREE, { "x-api-key": org.owner.apiKey }),
      };
      const peerTree: Target = {
        name: "PostGraphile",
        process: peer.process,
        request: graphql(`http://127.0.0.1:${PORT + 1}`, PEER_TREE),
      };
      const rest: Target = {
        name: "GET /api/agent/projects",
        process: skiff.process,
        request: { url: `${skiff.url}/api/agent/projects`, method: "GET", headers: { "x-api-key": agentToken } },
      };
      const restOnGraphql: Target = {
        name: "AgentProjects on /graphql",
        process: skiff.process,
        request: graphql(skiff.url, AGENT_PROJECTS, { "x-api-key": org.owner.apiKey }, { first: 100 }),
      };

      const idleRss = (await stats(skiff.process)).rssBytes / 1024 / 1024;
      const ours = normaliseSkiff(await call(skiffTree));
      const theirs = normalisePeer(await call(peerTree));
      if (JSON.stringify(ours) !== JSON.stringify(theirs)) throw new Error("Skiff and PostGraphile answers differ");
      const restBody = (await fetch(rest.request.url, { headers: rest.request.headers }).then((r) =>
        r.json(),
      )) as unknown[];
      if (restBody.length !== PROJECTS) throw new Error("GET /api/agent/projects: unexpected answer");
      const bytes = JSON.stringify(await call(skiffTree)).length;
      console.log(
        `bench:peer — ${PROJECTS} projects × 3 environments × 5 applications × 3 deployments + 1 domain ` +
          `(Skiff answer ${Math.round(bytes / 1024)} KB, equal to PostGraphile's after normalising); ${db.label}; ` +
          `${ROUNDS} rounds × ${DURATION} s per run`,
      );

      const statements = {
        skiff: await statementsPerRequest(skiffTree),
        peer: await statementsPerRequest(peerTree),
        rest: await statementsPerRequest(rest),
        restOnGraphql: await statementsPerRequest(restOnGraphql),
      };

      for (const t of [skiffTree, peerTree, rest, restOnGraphql])
        await autocannon({ ...t.request, connections: 8, duration: 2 });

      const runs = new Map<string, Run[]>();
      const record = (key: string, run: Run) => runs.set(key, [...(runs.get(key) ?? []), run]);
      for (let round = 0; round < ROUNDS; round++) {
        for (const connections of [1, 32]) {
          const pair = round % 2 ? [peerTree, skiffTree] : [skiffTree, peerTree];
          for (const t of pair) record(`${t.name}@${connections}`, await timed(t, connections));
        }
        const pair = round % 2 ? [restOnGraphql, rest] : [rest, restOnGraphql];
        for (const t of pair) record(`${t.name}@32`, await timed(t, 32));
      }

      const med = (key: string, field: keyof Run) => median((runs.get(key) ?? []).map((r) => r[field]));
      const lines: string[] = [];
      const row = (label: string, s: number, p: number, digits: number) =>
        lines.push(`| ${label} | ${fmt(s, digits)} | ${fmt(p, digits)} | ${fmt(s / p)}× |`);
      lines.push("| median of 3 rounds | Skiff | PostGraphile V5 | Skiff / PostGraphile |", "|---|---|---|---|");
      for (const c of [1, 32]) {
        const s = `Skiff@${c}`;
        const p = `PostGraphile@${c}`;
        row(`requests/s at ${c} connection${c > 1 ? "s" : ""}`, med(s, "rps"), med(p, "rps"), 1);
        row(`p50 ms at ${c}`, med(s, "p50"), med(p, "p50"), 1);
        row(`p99 ms at ${c}`, med(s, "p99"), med(p, "p99"), 1);
        row(`server CPU ms per request at ${c}`, med(s, "cpuMs"), med(p, "cpuMs"), 2);
      }
      row("SQL statements per request", statements.skiff, statements.peer, 2);
      console.log(lines.join("\n"));
      const restRps = med("GET /api/agent/projects@32", "rps");
      const gqlRps = med("AgentProjects on /graphql@32", "rps");
      console.log(
        `GET /api/agent/projects ${fmt(restRps, 1)} req/s vs the same operation on /graphql ${fmt(gqlRps, 1)} req/s ` +
          `at 32 connections: ${fmt(restRps / gqlRps)}× (SQL statements per request ${statements.rest} vs ${statements.restOnGraphql})`,
      );
      const rss = (runs.get("Skiff@32") ?? []).map((r) => r.rssMb);
      console.log(
        `Skiff RSS after the 32-connection runs: ${rss.map((m) => fmt(m, 0)).join(", ")} MB ` +
          `(max ${fmt(Math.max(...rss), 0)} MB; ${fmt(idleRss, 0)} MB when ready, before any request)`,
      );
      const errors = [...runs.entries()].filter(([, rs]) => rs.some((r) => r.errors > 0));
      if (errors.length) console.log(`runs with errors/non-2xx/timeouts: ${errors.map(([k]) => k).join(", ")}`);
      console.log(JSON.stringify({ statements, runs: Object.fromEntries(runs) }));
    } finally {
      await peer.stop();
      await skiff.stop();
    }
  } finally {
    await db.drop();
  }
}

await main();
