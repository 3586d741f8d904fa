/**
 * Shared benchmark plumbing: a scratch database (on DATABASE_URL's server, else an embedded PostgreSQL
 * under .data/bench) and a Skiff server in its own process (`node src/main.ts`, as `npm start` runs it),
 * so that the load generator never shares the server's event loop.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { ensureDatabase, withDatabase } from "../src/db/connect.ts";
import { startEmbeddedPostgres } from "../src/db/embedded.ts";

/** A migrated-on-start scratch database and how to remove it. */
export interface ScratchDatabase {
  url: string;
  /** "DATABASE_URL server" or "embedded PostgreSQL", for the printed figures. */
  label: string;
  drop(): Promise<void>;
}

/** Creates `skiff_bench_<pid>_<random>` on the chosen server. */
export async function scratchDatabase(): Promise<ScratchDatabase> {
  const embedded = process.env.DATABASE_URL
    ? null
    : await startEmbeddedPostgres(".data/bench", Number(process.env.SKIFF_BENCH_PG_PORT ?? 54331), { durable: false });
  const adminUrl = embedded?.url ?? withDatabase(process.env.DATABASE_URL!, "postgres");
  const name = `skiff_bench_${process.pid}_${randomBytes(3).toString("hex")}`;
  const url = await ensureDatabase(adminUrl, name);
  return {
    url,
    label: embedded ? "embedded PostgreSQL" : "DATABASE_URL server",
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`drop database if exists ${pg.escapeIdentifier(name)} with (force)`);
      await client.end();
      await embedded?.stop();
    },
  };
}

/** A TCP port free on loopback right now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
    probe.on("error", reject);
  });
}

/** A Skiff server process listening on `url`. */
export interface BenchServer {
  url: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

/**
 * Extra process options: `nodeArgs` before the script (e.g. `--import` a probe, which then gets an IPC channel), a
 * fixed `port`, and `cwd`: the checkout whose `src/main.ts` runs (default: this one; another one for a before/after
 * comparison).
 */
export interface ServerProcessOptions {
  nodeArgs?: string[];
  port?: number;
  cwd?: string;
}

/**
 * What `npm start` of the checkout at `cwd` (default this one) runs, from its package.json's `scripts.start`
 * (`NAME=${NAME:-value}… node <flags> src/main.ts`): the Node flags (with their values, e.g. `--import <hook>`) and
 * the environment it sets unless it is set (`NAME=${NAME:-value}`; `NAME=value` too), so servers run as users run
 * them — an earlier checkout (BENCH_BEFORE) as its own `npm start` ran it.
 */
function startCommand(cwd = fileURLToPath(new URL("..", import.meta.url))): {
  flags: string[];
  env: Record<string, string>;
} {
  const words = (
    JSON.parse(readFileSync(join(cwd, "package.json"), "utf8")) as { scripts: { start: string } }
  ).scripts.start.split(/\s+/);
  const node = words.indexOf("node");
  const env = Object.fromEntries(
    words.slice(0, node).flatMap((word) => {
      const m = /^([A-Z_][A-Z0-9_]*)=(?:\$\{\1:-([^}]*)\}|(.*))$/.exec(word);
      return m ? [[m[1]!, m[2] ?? m[3]!]] : [];
    }),
  );
  return { flags: words.slice(node + 1, -1), env };
}

/**
 * `npm start`'s `prestart` steps that shape the server process, for the checkout at `cwd`: its sources' types
 * stripped ahead of time (scripts/strip-sources.mjs, when the checkout has it). The dashboard's build is left out.
 */
function prestart(cwd = fileURLToPath(new URL("..", import.meta.url))): void {
  const strip = join(cwd, "scripts", "strip-sources.mjs");
  if (existsSync(strip)) spawnSync(process.execPath, ["--no-warnings", strip], { stdio: "inherit" });
}

/**
 * Starts `node src/main.ts` on `databaseUrl` (migrating it) as the checkout's `npm start` does (its Node flags and
 * environment, its types stripped ahead of time: {@link startCommand}, {@link prestart}), with extra `env`, and waits
 * for /readyz. BENCH_CPU_PROF_DIR writes a V8 CPU profile of the server there; BENCH_SERVER_NODE_FLAGS adds Node
 * flags (space-separated, e.g. `--trace-gc`). Its logs are off (LOG_LEVEL `silent`) unless
 * BENCH_SERVER_LOG_LEVEL names a level (e.g. `info`, `npm start`'s default: one line per request, to this stdout).
 * @throws Error when the server is not ready within 60 s.
 */
export async function startServerProcess(
  databaseUrl: string,
  env: Record<string, string> = {},
  secret = randomBytes(32).toString("hex"),
  options: ServerProcessOptions = {},
): Promise<BenchServer> {
  const port = options.port ?? (await freePort());
  const nodeArgs = options.nodeArgs ?? [];
  const url = `http://127.0.0.1:${port}`;
  const profile = process.env.BENCH_CPU_PROF_DIR;
  const start = startCommand(options.cwd);
  prestart(options.cwd);
  const child = spawn(
    process.execPath,
    [
      ...(profile ? ["--cpu-prof", `--cpu-prof-dir=${profile}`] : []),
      ...(process.env.BENCH_SERVER_NODE_FLAGS?.split(" ").filter(Boolean) ?? []),
      ...start.flags,
      ...nodeArgs,
      "src/main.ts",
    ],
    {
      cwd: options.cwd,
      env: {
        ...start.env,
        ...process.env,
        DATABASE_URL: databaseUrl,
        HOST: "127.0.0.1",
        PORT: String(port),
        // /metrics beside the API (bench/subscriptions.ts reads it there; several servers may run at once).
        SKIFF_METRICS_PORT: "main",
        SKIFF_SECRET: secret,
        LOG_LEVEL: process.env.BENCH_SERVER_LOG_LEVEL ?? "silent",
        SKIFF_BOOTSTRAP: "false",
        ...env,
      },
      stdio: ["ignore", "inherit", "inherit", ...(nodeArgs.length ? (["ipc"] as const) : [])],
    },
  );
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const stop = async () => {
    child.kill("SIGTERM");
    await exited;
  };
  for (let i = 0; ; i++) {
    const ready = await fetch(`${url}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) break;
    if (i > 600) {
      await stop();
      throw new Error("the server did not become ready");
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { url, process: child, stop };
}

/**
 * The sum and count of the histogram series whose name is `name` and whose labels include `labels`, in `text` (a
 * Prometheus exposition, e.g. a server's /metrics).
 */
export function histogramTotals(
  text: string,
  name: string,
  labels: Record<string, string>,
): { sum: number; count: number } {
  const totals = { sum: 0, count: 0 };
  for (const line of text.split("\n")) {
    const m = /^(\w+)_(sum|count)\{([^}]*)\} (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const has = Object.entries(labels).every(([k, v]) => m[3]!.includes(`${k}="${v}"`));
    if (has) totals[m[2] as "sum" | "count"] += Number(m[4]);
  }
  return totals;
}
