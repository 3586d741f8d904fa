/**
 * The lock of a data directory: one Skiff process at a time runs the embedded PostgreSQL of a `SKIFF_DATA_DIR`.
 * It is an exclusive flock(2) on `<dataDir>/skiff.lock`, taken before anything else in the directory is written
 * (initdb included) and held by an open descriptor of this process. The kernel releases it when the process
 * ends, however it ends (kill -9 and the OOM killer included), so a lock is never stale and needs no liveness
 * check or expiry: a lock file that outlives its process is only a file.
 *
 * Node has no flock of its own, and a native addon would need a compiler and Node's headers at install. A one-shot
 * helper takes the lock instead: util-linux's `flock`, else `perl` (macOS), each given this process's
 * descriptor as its fd 3. A flock belongs to the open file description, which the helper shares with this
 * process: when the helper exits, the lock stays, held by this process's descriptor alone (opened close-on-exec,
 * so the postmaster and other children never inherit it).
 */
import { spawn } from "node:child_process";
import { closeSync, constants, ftruncateSync, openSync, readFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { isAlive } from "./embedded-orphan.ts";

/** A held data directory lock. */
export interface DataDirLock {
  /** The lock file, e.g. `/srv/skiff/.data/skiff.lock`. */
  readonly file: string;
  /** Releases the lock (closes its descriptor). Idempotent. */
  release(): void;
}

/** The lock file of data directory `dataDir` (never removed: removing a locked file would let a second lock in). */
export function lockFile(dataDir: string): string {
  return join(dataDir, "skiff.lock");
}

/** Perl's part when util-linux's `flock` is missing: exit 0 locked, 1 held elsewhere, else a message. */
const PERL_FLOCK =
  'open(my $fd, "+<&=", 3) or die "fd 3: $!\\n"; flock($fd, LOCK_EX | LOCK_NB) and exit 0; ' +
  'exit 1 if $!{EWOULDBLOCK}; die "flock: $!\\n"';

/** The helpers tried in order: program and arguments locking fd 3 without waiting (exit 1, silent, when held). */
const HELPERS: ReadonlyArray<readonly [string, readonly string[]]> = [
  ["flock", ["-x", "-n", "3"]],
  ["perl", ["-MFcntl=:flock", "-e", PERL_FLOCK]],
];

/** Runs `helper` on `fd`: "locked", "held" (another descriptor holds it), or "missing" (no such program). */
async function runHelper(
  [program, args]: (typeof HELPERS)[number],
  fd: number,
): Promise<"locked" | "held" | "missing"> {
  const child = spawn(program, args, { stdio: ["ignore", "ignore", "pipe", fd] });
  let stderr = "";
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  const outcome = await new Promise<number | NodeJS.ErrnoException>((done) => {
    child.once("error", done);
    child.once("close", (code, signal) => done(code ?? (signal === null ? -1 : 128)));
  });
  if (typeof outcome !== "number") {
    if (outcome.code === "ENOENT") return "missing";
    throw outcome;
  }
  if (outcome === 0) return "locked";
  if (outcome === 1 && stderr.trim() === "") return "held";
  throw new Error(`${program} could not lock (exit ${outcome}): ${stderr.trim()}`);
}

/**
 * The pid recorded by the holder of `file`, when it names a live process: the holder writes it just after taking
 * the lock, so an empty or dead one is read again for up to 1 s.
 */
async function holderOf(file: string): Promise<number | undefined> {
  for (let attempt = 0; attempt < 20; attempt++) {
    let text = "";
    try {
      text = readFileSync(file, "utf8");
    } catch {
      // Removed by hand meanwhile: no pid to tell.
    }
    const pid = Number(text.trim());
    if (Number.isInteger(pid) && pid > 0 && isAlive(pid)) return pid;
    await sleep(50);
  }
  return undefined;
}

/**
 * Takes the lock of `dataDir` (an existing directory) without waiting, and records this process's pid in it.
 * @throws Error naming the directory and the holder's pid when another process holds it (a Skiff serving from
 * it, or one still shutting down); Error naming `flock` and `perl` when neither can be run; an I/O Error when the
 * lock file cannot be opened or locked.
 */
export async function lockDataDir(dataDir: string): Promise<DataDirLock> {
  const file = lockFile(dataDir);
  // Node opens every descriptor close-on-exec: only the helper, given it explicitly as fd 3, ever shares it.
  const fd = openSync(file, constants.O_RDWR | constants.O_CREAT, 0o644);
  try {
    let outcome: "locked" | "held" | "missing" = "missing";
    for (const helper of HELPERS) {
      outcome = await runHelper(helper, fd);
      if (outcome !== "missing") break;
    }
    if (outcome === "missing") {
      throw new Error(
        `Cannot lock the data directory ${dataDir}: neither \`flock\` (util-linux) nor \`perl\` is installed. ` +
          "Install one of them, or set DATABASE_URL.",
      );
    }
    if (outcome === "held") {
      const pid = await holderOf(file);
      throw new Error(
        `The data directory ${dataDir} is in use by ${pid ? `Skiff process ${pid}` : "another Skiff process"} ` +
          `(it holds ${file}). Stop that process first (a Skiff that is shutting down releases it when it exits), ` +
          "or give this one another SKIFF_DATA_DIR and SKIFF_EMBEDDED_PG_PORT.",
      );
    }
    ftruncateSync(fd);
    writeSync(fd, `${process.pid}\n`, 0);
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  let open = true;
  return {
    file,
    release() {
      if (!open) return;
      open = false;
      closeSync(fd);
    },
  };
}
