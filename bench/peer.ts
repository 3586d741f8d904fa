/**
 * The read panel (`npm run bench:peer`): Skiff against PostGraphile V5 on the same tables, and
 * optionally against an earlier Skiff, on several query shapes.
 *
 * Seeds a scratch database (bench/peer-seed.ts: 50 projects × 3 environments × 5 applications × 3 deployments + a
 * domain each, 50 site imports, 5 webhook endpoints × 50 delivery log entries) and serves it from Skiff of this
 * checkout ("after", API key of the owner), PostGraphile V5 (Amber preset, no auth, bench/peer/server.mjs) and, with
 * BENCH_BEFORE=<git ref>, Skiff of that ref ("before", a temporary git worktree sharing node_modules;
 * bench/before-checkout.ts), each in its own process. For every shape (bench/peer-shapes.ts; BENCH_SHAPES=1,2,…
 * selects; shape 8, a computed field in the tree, only when named) the answers are normalised and checked equal (after = PostGraphile after normalising; after = before
 * byte for byte) before timing, and again after it (the data must not change under load); a shape whose answers
 * differ or fail is reported and not timed. Then autocannon drives each server at 1 and 32 connections,
 * BENCH_ROUNDS rounds (default 3) of BENCH_DURATION seconds (default 5), the order of the servers alternating, and
 * prints per shape the medians of requests/s, p99, Node CPU, PostgreSQL backend CPU (bench/pg-cpu.ts) and their
 * total per request, SQL statements per request and the ratios after / PostGraphile and after / before
 * (bench/peer-panel.ts); then a summary table, the agent REST line (`GET /api/agent/projects` against the same
 * operation on /graphql, on after alone, timed once every shape's rounds are done so that its large answers weigh
 * on no shape's figures) and each server's RSS after its 32-connection shape runs (after's also after the agent
 * runs). Ports: BENCH_PEER_PORT (default 46001) for after, the next two for PostGraphile and before. Exits 1 when an
 * answer check failed. BENCH_SKIFF_NODE_ARGS: extra Node flags for the Skiff servers (e.g. `--cpu-prof`);
 * BENCH_AFTER_NODE_ARGS: extra flags for after only (with BENCH_BEFORE=HEAD: a flag A/B on the same code);
 * BENCH_SERVER_LOG_LEVEL: their LOG_LEVEL (default `silent`, as the peer logs no requests; `npm start` logs at `info`).
 * BENCH_CALLER=session: the Skiff servers' requests carry the owner's session cookie (signed in on after) instead of
 * the owner's API key — the dashboard's way of asking.
 */
import { createKnex, migrateLatest } from "../src/db/knex.ts";
import { type BeforeCheckout, checkoutBefore } from "./before-checkout.ts";
import { scratchDatabase } from "./harness.ts";
import { CONNECTIONS, median, type PanelColumns, PanelFigures, shapeTable, summaryTable } from "./peer-panel.ts";
import { call, graphqlTarget, statementsPerRequest, type Target, timed, warmUp } from "./peer-runs.ts";
import { OWNER_PASSWORD, SEED, seedPeerBench } from "./peer-seed.ts";
import { type PanelServer, probeStats, SKIFF_BASE_URL, startPostGraphile, startSkiffServer } from "./peer-servers.ts";
import { comparable, firstDifference, peerShapes, type Shape } from "./peer-shapes.ts";
import { pgCpuSampler } from "./pg-cpu.ts";

const DURATION = Number(process.env.BENCH_DURATION ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** Rounds of the agent REST comparison: at least 5 (its two runs are on one server, PostgreSQL-bound and noisy). */
const REST_ROUNDS = Math.max(ROUNDS, 5);
const PORT = Number(process.env.BENCH_PEER_PORT ?? 46001);
const BEFORE = process.env.BENCH_BEFORE;
const SELECTED = process.env.BENCH_SHAPES?.split(",").map(Number);
/** How the Skiff servers' requests authenticate: the owner's API key (default) or a signed-in session's cookie. */
const CALLER = process.env.BENCH_CALLER === "session" ? "session" : "apiKey";

/** The agent API's operation (src/modules/agent/agent.rest.ts), sent to /graphql for the REST ratio. */
const AGENT_PROJECTS = `query AgentProjects($first: Int!, $after: String) { projects(first: $first, after: $after) {
  pageInfo { hasNextPage endCursor }
  nodes { projectId: id name description createdAt environments { environmentId: id name
    applications { applicationId: id name appName applicationStatus createdAt } } } } }`;

const fmt = (x: number | null, digits = 2) => (x === null ? "n/a" : x.toFixed(digits));
/**
 * Signs the seeded owner in on `url` (`POST /api/auth/sign-in/email`). @returns the session's `cookie` header.
 * @throws Error when the sign-in fails.
 */
async function signIn(url: string, email: string): Promise<string> {
  const res = await fetch(`${url}/api/auth/sign-in/email`, {
    method: "POST",
    // As a browser on the dashboard sends it (better-auth checks the origin of cookie-setting requests).
    headers: { "content-type": "application/json", origin: SKIFF_BASE_URL },
    body: JSON.stringify({ email, password: OWNER_PASSWORD }),
  });
  if (res.status !== 200) throw new Error(`sign-in: ${res.status} ${await res.text()}`);
  return res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}

/** The medians of runs' Node and PostgreSQL CPU per request (ms), as `node · pg`. */
const cpuPair = (runs: [number, number][]) =>
  `${fmt(median(runs.map((r) => r[0])))} · ${fmt(median(runs.map((r) => r[1]).filter((x) => !Number.isNaN(x))))}`;

/** A shape's targets, one per server (keyed by server name). */
type ShapeTargets = Map<string, Target>;

/**
 * Checks the answers of each of `shapes` ({@link checkShape}) and prints `answers of shape N (label)<when>: equal`
 * or `DIFFER — <why>`. @returns the shapes whose answers are equal.
 */
async function equalShapes(shapes: Shape[], targets: Map<number, ShapeTargets>, when: string): Promise<Shape[]> {
  const equal: Shape[] = [];
  for (const shape of shapes) {
    const problem = await checkShape(shape, targets.get(shape.id)!);
    console.log(`answers of shape ${shape.id} (${shape.label})${when}: ${problem ? `DIFFER — ${problem}` : "equal"}`);
    if (!problem) equal.push(shape);
  }
  return equal;
}

/**
 * Checks a shape's answers: after against PostGraphile (normalised) and against before (as sent).
 * @returns null when equal, else what failed (a server's error or the first difference).
 */
async function checkShape(shape: Shape, targets: ShapeTargets): Promise<string | null> {
  const answers = new Map<string, unknown>();
  for (const [name, target] of targets) {
    try {
      answers.set(name, await call(target));
    } catch (e) {
      return `${name} answered an error: ${(e as Error).message}`;
    }
  }
  const after = answers.get("after");
  const peerDiff = firstDifference(
    comparable(shape, "skiff", after),
    comparable(shape, "peer", answers.get("PostGraphile")),
  );
  if (peerDiff) return `after ≠ PostGraphile (normalised) at ${peerDiff}`;
  if (answers.has("before")) {
    const beforeDiff = firstDifference(
      (after as { data: unknown }).data,
      (answers.get("before") as { data: unknown }).data,
    );
    if (beforeDiff) return `after ≠ before at ${beforeDiff}`;
  }
  return null;
}

async function main(): Promise<void> {
  const db = await scratchDatabase();
  const cleanups: Array<() => Promise<void> | void> = [() => db.drop()];
  let failed = false;
  try {
    const knex = createKnex(db.url);
    await migrateLatest(knex);
    const seed = await seedPeerBench(knex);
    await knex.raw("analyze");
    await knex.destroy();

    let checkout: BeforeCheckout | null = null;
    if (BEFORE) {
      checkout = checkoutBefore(BEFORE);
      cleanups.unshift(() => checkout?.remove());
      if (checkout.packageJsonDiffers) console.log(`warning: ${BEFORE}'s package.json differs from this checkout's`);
    }
    const servers: PanelServer[] = [];
    const start = async (started: Promise<PanelServer>) => {
      const server = await started;
      servers.push(server);
      cleanups.unshift(() => server.stop());
      return server;
    };
    const after = await start(startSkiffServer("after", db.url, PORT));
    const peer = await start(startPostGraphile(db.url, PORT + 1));
    const before = checkout ? await start(startSkiffServer("before", db.url, PORT + 2, checkout.dir)) : null;
    const pg = await pgCpuSampler(db.url);
    cleanups.unshift(() => pg.close());
    const columns: PanelColumns = {
      servers: ["after", ...(before ? ["before"] : []), "PostGraphile"],
      before: Boolean(before),
    };
    const idleRss = new Map<string, number>();
    for (const s of servers) idleRss.set(s.name, (await probeStats(s.process)).rssBytes / 1024 / 1024);

    const auth: Record<string, string> =
      CALLER === "session" ? { cookie: await signIn(after.url, seed.ownerEmail) } : { "x-api-key": seed.apiKey };
    const allShapes = peerShapes(seed);
    const unknown = SELECTED?.filter((id) => !allShapes.some((s) => s.id === id));
    if (unknown?.length) throw new Error(`BENCH_SHAPES: no shape ${unknown.join(", ")} (1 to ${allShapes.length})`);
    const shapes = allShapes.filter((s) => (SELECTED ? SELECTED.includes(s.id) : !s.optional));
    const targets = new Map<number, ShapeTargets>();
    for (const shape of shapes) {
      const t: ShapeTargets = new Map([
        ["after", graphqlTarget(after, shape.skiff.query, shape.skiff.variables, auth)],
      ]);
      if (before) t.set("before", graphqlTarget(before, shape.skiff.query, shape.skiff.variables, auth));
      t.set("PostGraphile", graphqlTarget(peer, shape.peer.query, shape.peer.variables));
      targets.set(shape.id, t);
    }
    const rest: Target = {
      server: after,
      request: { url: `${after.url}/api/agent/projects`, method: "GET", headers: { "x-api-key": seed.agentToken } },
    };
    const restOnGraphql = graphqlTarget(after, AGENT_PROJECTS, { first: 100 }, auth);

    console.log(
      `bench:peer — ${SEED.projects} projects × ${SEED.environments} environments × ${SEED.applicationsPerEnvironment} ` +
        `applications × ${SEED.deploymentsPerApplication} deployments + ${SEED.domainsPerApplication} domain, ` +
        `${SEED.siteImports} site imports, ${SEED.webhookEndpoints} webhook endpoints × ` +
        `${SEED.deliveriesPerEndpoint * SEED.attemptsPerDelivery} delivery attempts; ${db.label}; ` +
        `servers: after (this checkout)${checkout ? `, before (${BEFORE}, commit ${checkout.commit})` : ""}, PostGraphile V5; ` +
        `Skiff's caller: the owner's ${CALLER === "session" ? "session cookie" : "API key"}; ` +
        `${ROUNDS} rounds × ${DURATION} s per run`,
    );
    const timedShapes = await equalShapes(shapes, targets, "");
    if (timedShapes.length < shapes.length) failed = true;
    const restBody = (await call(rest)) as unknown[];
    if (restBody.length !== SEED.projects) throw new Error("GET /api/agent/projects: unexpected answer");

    const figures = new PanelFigures();
    for (const shape of timedShapes)
      for (const [name, target] of targets.get(shape.id)!)
        figures.setStatements(shape.id, name, await statementsPerRequest(target));
    const restStatements = {
      rest: await statementsPerRequest(rest),
      graphql: await statementsPerRequest(restOnGraphql),
    };
    const runs = timedShapes.length * CONNECTIONS.length * servers.length * ROUNDS + 2 * REST_ROUNDS;
    console.log(`timing ${runs} runs of ${DURATION} s (about ${Math.ceil((runs * (DURATION + 1.2)) / 60)} min)`);

    const warm = Math.min(2, DURATION);
    for (const shape of timedShapes) for (const t of targets.get(shape.id)!.values()) await warmUp(t, warm);

    for (let round = 0; round < ROUNDS; round++) {
      for (const shape of timedShapes) {
        for (const c of CONNECTIONS) {
          const order = [...targets.get(shape.id)!];
          if (round % 2) order.reverse();
          for (const [name, target] of order) figures.record(shape.id, name, c, await timed(target, c, DURATION, pg));
        }
      }
    }
    // The data must not have changed under the load (a background job ending seeded records, say): checked again.
    if ((await equalShapes(timedShapes, targets, " after the timing")).length < timedShapes.length) failed = true;
    // The agent REST comparison loads only "after" (with the 50-project tree): run after every shape's rounds, so
    // that its heap does not weigh on after's shape figures (CPU, RSS) and not on the other servers'.
    for (const t of [rest, restOnGraphql]) await warmUp(t, warm);
    const restRuns = { rest: [] as number[], graphql: [] as number[] };
    const restCpu = { rest: [] as [number, number][], graphql: [] as [number, number][] };
    let restRss = 0;
    for (let round = 0; round < REST_ROUNDS; round++) {
      const pair = round % 2 ? (["graphql", "rest"] as const) : (["rest", "graphql"] as const);
      for (const which of pair) {
        const run = await timed(which === "rest" ? rest : restOnGraphql, 32, DURATION, pg);
        restRuns[which].push(run.rps);
        restCpu[which].push([run.nodeCpuMs, run.pgCpuMs ?? Number.NaN]);
        restRss = Math.max(restRss, run.rssMb);
      }
    }

    for (const shape of timedShapes) {
      console.log(`\n### ${shape.id}. ${shape.label}\n\n${shapeTable(figures, shape.id, columns, ROUNDS)}`);
    }
    const summaryShapes = shapes.map((s) => ({ id: s.id, label: s.label, timed: timedShapes.includes(s) }));
    console.log(`\n### Summary\n\n${summaryTable(figures, summaryShapes, columns)}\n`);
    const restRps = median(restRuns.rest);
    const gqlRps = median(restRuns.graphql);
    console.log(
      `GET /api/agent/projects ${fmt(restRps, 1)} req/s vs the same operation on /graphql ${fmt(gqlRps, 1)} req/s ` +
        `at 32 connections: ${restRps && gqlRps ? fmt(restRps / gqlRps) : "n/a"}× (SQL statements per request ` +
        `${fmt(restStatements.rest)} vs ${fmt(restStatements.graphql)}; Node · PostgreSQL CPU ms/request ` +
        `${cpuPair(restCpu.rest)} vs ${cpuPair(restCpu.graphql)})`,
    );
    const rss = columns.servers.map((name) => {
      const after32 = timedShapes.flatMap((s) => figures.runsOf(s.id, name, 32).map((r) => r.rssMb));
      return `${name} ${after32.length ? fmt(Math.max(...after32), 0) : "n/a"} MB (${fmt(idleRss.get(name) ?? null, 0)} MB when ready)`;
    });
    console.log(
      `RSS after the 32-connection runs (max): ${rss.join("; ")}; after, then after the agent runs: ${fmt(restRss, 0)} MB`,
    );
    const withErrors = timedShapes.flatMap((s) =>
      columns.servers.flatMap((name) =>
        CONNECTIONS.filter((c) => figures.runsOf(s.id, name, c).some((r) => r.errors > 0)).map(
          (c) => `shape ${s.id} ${name}@${c}`,
        ),
      ),
    );
    if (withErrors.length) console.log(`runs with errors/non-2xx/timeouts: ${withErrors.join(", ")}`);
    console.log(JSON.stringify({ ...figures.toJSON(), restRuns, restCpu, restStatements }));
  } finally {
    for (const cleanup of cleanups) await cleanup();
  }
  if (failed) process.exitCode = 1;
}

await main();
