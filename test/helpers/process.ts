/**
 * Runs `src/main.ts` as a real child process (the way `npm start` does, on this Node binary) and follows its
 * output: JSON log lines and the first-run banner on stdout.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { TEST_SECRET } from "./seed.ts";

const root = fileURLToPath(new URL("../../", import.meta.url));
/** Node 24 from the `node` devDependency (what `npm start` uses), whatever Node runs the tests. */
const nodeBinary = existsSync(`${root}node_modules/.bin/node`) ? `${root}node_modules/.bin/node` : process.execPath;

/** A started `src/main.ts` process. */
export interface SkiffProcess {
  child: ChildProcess;
  /** Everything written to stdout so far. */
  stdout(): string;
  /** Everything written to stderr so far. */
  stderr(): string;
  /** Resolves with the first log record matching `predicate` (waits for it, at most `timeoutMs`). */
  waitForLog(
    predicate: (record: Record<string, unknown>) => boolean,
    timeoutMs?: number,
  ): Promise<Record<string, unknown>>;
  /** Resolves once stdout matches `pattern` (at most `timeoutMs`). */
  waitForOutput(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  /** Resolves with the exit code and signal. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * Spawns `node src/main.ts` (the checkout's, on Node 24) with `env` added to a minimal environment (loopback, any
 * free port, JSON logs, the test secret), stdout and stderr piped; with `npm start`'s load hook, which serves the
 * sources stripped ahead of time where `prestart` left copies of them (scripts/stripped-sources.mjs).
 */
export function spawnMain(env: Record<string, string>): ChildProcess {
  return spawn(nodeBinary, ["--import", "./scripts/stripped-sources.mjs", "src/main.ts"], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "",
      HOST: "127.0.0.1",
      PORT: "0",
      SKIFF_METRICS_PORT: "main",
      LOG_LEVEL: "info",
      SKIFF_SECRET: TEST_SECRET,
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
}

/**
 * Starts `node src/main.ts` with `env` added to a minimal environment (loopback, any free port, JSON logs,
 * the test secret); DATABASE_URL is expected in `env`.
 */
export function spawnSkiff(env: Record<string, string>): SkiffProcess {
  const child = spawnMain(env);
  let out = "";
  const listeners = new Set<() => void>();
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
    out += chunk;
    for (const l of listeners) l();
  });
  let err = "";
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    err += chunk;
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  const records = () =>
    out
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => {
        try {
          return JSON.parse(line) as Record<string, unknown>;
        } catch {
          return {};
        }
      });
  function waitFor<T>(check: () => T | undefined, what: string, timeoutMs: number): Promise<T> {
    return new Promise((resolve, reject) => {
      const done = () => {
        const found = check();
        if (found === undefined) return;
        listeners.delete(done);
        clearTimeout(timer);
        resolve(found);
      };
      const timer = setTimeout(() => {
        listeners.delete(done);
        reject(new Error(`timed out waiting for ${what}\nstdout:\n${out}\nstderr:\n${err}`));
      }, timeoutMs);
      listeners.add(done);
      void exited.then(() => setTimeout(done, 0));
      done();
    });
  }
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    waitForLog: (predicate, timeoutMs = 30_000) => waitFor(() => records().find(predicate), "a log line", timeoutMs),
    waitForOutput: (pattern, timeoutMs = 30_000) =>
      waitFor(() => out.match(pattern) ?? undefined, String(pattern), timeoutMs),
    exited,
  };
}
