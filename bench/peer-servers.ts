/**
 * The servers of `npm run bench:peer`, each in its own process with bench/peer-probe.mjs preloaded (statement
 * counter, CPU, RSS over IPC) and its own PGAPPNAME (so bench/pg-cpu.ts finds its PostgreSQL backends): Skiff as
 * this checkout runs it ("after"), optionally Skiff of an earlier commit ("before", another checkout's
 * `src/main.ts` on the same database) and PostGraphile V5 (bench/peer/server.mjs, Amber preset, no auth).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { TEST_SECRET } from "../test/helpers/seed.ts";
import { startServerProcess } from "./harness.ts";

/** The public origin of every Skiff server of the panel (computed URLs compare equal; sign-in sends it as Origin). */
export const SKIFF_BASE_URL = "http://skiff.bench.test";

/** The probe, by absolute path: a "before" server runs from another directory. */
const PROBE = ["--import", new URL("./peer-probe.mjs", import.meta.url).pathname];

/** One benchmarked server. */
export interface PanelServer {
  /** `after`, `before` or `PostGraphile`: the panel's column. */
  name: string;
  /** Its connections' `application_name` in pg_stat_activity. */
  appName: string;
  url: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

/** Figures a probe reports. */
export interface ProbeStats {
  statements: number;
  cpuMicros: number;
  rssBytes: number;
}

/** Asks a probed process for its figures. */
export async function probeStats(child: ChildProcess): Promise<ProbeStats> {
  const answer = once(child, "message") as Promise<[ProbeStats]>;
  child.send("stats");
  return (await answer)[0];
}

/** The whitespace-separated words of `value` (none when unset). */
function words(value: string | undefined): string[] {
  return value?.split(/\s+/).filter(Boolean) ?? [];
}

/**
 * Starts Skiff (`node src/main.ts` of `cwd`, default this checkout) on `databaseUrl` at `port` as `npm start`
 * runs it, with limits raised so that the load is not refused (agent rate limit, query cost, execution time).
 * @throws Error when it does not become ready.
 */
export async function startSkiffServer(
  name: string,
  databaseUrl: string,
  port: number,
  cwd?: string,
): Promise<PanelServer> {
  const appName = `bench-skiff-${name}`;
  const server = await startServerProcess(
    databaseUrl,
    {
      SKIFF_AGENT_RATE_LIMIT: "1000000000",
      SKIFF_MAX_QUERY_COST: "100000000",
      SKIFF_EXECUTION_TIMEOUT_MS: "600000",
      // As operators run it (graphql-js skips its development-only checks); PostGraphile runs so too.
      NODE_ENV: "production",
      PGAPPNAME: appName,
      // One public origin for every Skiff server, so that computed URLs (shape 8) compare equal between them.
      SKIFF_BASE_URL: SKIFF_BASE_URL,
    },
    TEST_SECRET,
    // BENCH_SKIFF_NODE_ARGS: more Node flags for diagnosis, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`;
    // BENCH_AFTER_NODE_ARGS: for "after" only (a flag against the same code: with BENCH_BEFORE=HEAD).
    {
      nodeArgs: [
        ...PROBE,
        ...words(process.env.BENCH_SKIFF_NODE_ARGS),
        ...(name === "after" ? words(process.env.BENCH_AFTER_NODE_ARGS) : []),
      ],
      port,
      cwd,
    },
  );
  return { name, appName, ...server };
}

/**
 * Starts PostGraphile V5 (bench/peer/server.mjs) on `databaseUrl` at 127.0.0.1:`port`.
 * @throws Error when it exits before printing `ready`.
 */
export async function startPostGraphile(databaseUrl: string, port: number): Promise<PanelServer> {
  const appName = "bench-postgraphile";
  const child = spawn(process.execPath, [...PROBE, "bench/peer/server.mjs"], {
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      NODE_ENV: "production",
      PGAPPNAME: appName,
      // One public origin for every Skiff server, so that computed URLs (shape 8) compare equal between them.
      SKIFF_BASE_URL: SKIFF_BASE_URL,
    },
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
    name: "PostGraphile",
    appName,
    url: `http://127.0.0.1:${port}`,
    process: child,
    async stop() {
      child.kill("SIGTERM");
      await exited;
    },
  };
}
