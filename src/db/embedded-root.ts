/**
 * Running the embedded PostgreSQL when Skiff runs as root. PostgreSQL refuses root, so the cluster runs as
 * the `postgres` system user (created when missing), who must reach the binaries and the data. When the
 * checkout lies under a directory that user cannot enter (`/root`, a `mktemp -d` directory), the binaries
 * are copied to, and the data placed in, a root-owned directory under /var/tmp (see {@link externalBase}).
 * Non-root users never come here: their cluster runs as themselves, in place.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { chmod, chown, cp, lstat, mkdir, readlink, rename, rm, stat, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import type { PostgresBinaries } from "./embedded-binaries.ts";

/** The account the cluster runs as (root only). */
export interface RunAs {
  uid: number;
  gid: number;
}

/** True when this process runs as root (uid 0). Always false on Windows. */
export function isRoot(): boolean {
  return typeof process.getuid === "function" && process.getuid() === 0;
}

function idOf(flag: "-u" | "-g"): number | undefined {
  try {
    return Number(execFileSync("id", [flag, "postgres"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }));
  } catch {
    return undefined;
  }
}

/**
 * Returns the uid/gid of the `postgres` system user, creating it (no home, no login) when missing.
 * @throws Error saying how to create the user, or to run as another user, when it cannot be created.
 */
export function postgresUser(): RunAs {
  let uid = idOf("-u");
  if (uid === undefined) {
    const attempts: Array<[string, string[]]> = [
      ["useradd", ["--system", "--user-group", "--no-create-home", "postgres"]],
      ["adduser", ["-S", "-D", "-H", "postgres"]],
    ];
    for (const [command, args] of attempts) {
      if (spawnSync(command, args, { stdio: "ignore" }).status === 0) break;
    }
    uid = idOf("-u");
  }
  const gid = idOf("-g");
  if (uid === undefined || gid === undefined) {
    throw new Error(
      "PostgreSQL cannot run as root and there is no `postgres` user to run it as, nor could one be created. " +
        "Create one (`useradd --system --user-group postgres`), run Skiff as a non-root user, or set DATABASE_URL.",
    );
  }
  return { uid, gid };
}

/** True when `user` may enter `dir` and every directory above it (owner, group and other bits; no ACLs). */
export async function traversable(dir: string, user: RunAs): Promise<boolean> {
  let current = resolve(dir);
  for (;;) {
    const s = await stat(current);
    const bit = s.uid === user.uid ? 0o100 : s.gid === user.gid ? 0o010 : 0o001;
    if ((s.mode & bit) === 0) return false;
    const parent = dirname(current);
    if (parent === current) return true;
    current = parent;
  }
}

/**
 * The root-owned directory (`/var/tmp/skiff-postgres`, or under os.tmpdir() without /var/tmp) holding copies
 * of the binaries and the data of clusters whose data directory the `postgres` user cannot reach.
 * @throws Error when it exists but is not a root-owned directory closed to writes by others (someone else
 * created it: using it would let them swap the binaries).
 */
export async function externalBase(): Promise<string> {
  const base = join(existsSync("/var/tmp") ? "/var/tmp" : tmpdir(), "skiff-postgres");
  await mkdir(base, { recursive: true, mode: 0o755 });
  const s = await lstat(base);
  if (!s.isDirectory() || s.uid !== 0 || (s.mode & 0o022) !== 0) {
    throw new Error(
      `${base} must be a directory owned by root and writable only by root (it holds PostgreSQL binaries run ` +
        `by the postgres user); it is not. Remove it (rm -rf ${base}) and start again.`,
    );
  }
  await chmod(base, 0o755);
  return base;
}

function runsAs(binaries: PostgresBinaries, user: RunAs): boolean {
  return spawnSync(binaries.postgres, ["--version"], { ...user, stdio: "ignore" }).status === 0;
}

/**
 * Binaries the `postgres` user can execute: the installed ones when reachable, else a copy under
 * {@link externalBase} named after the package version (made once, atomically, and reused).
 * @throws Error naming the directory when even the copy cannot be run.
 */
export async function reachableBinaries(binaries: PostgresBinaries, user: RunAs): Promise<PostgresBinaries> {
  if (runsAs(binaries, user)) return binaries;
  const base = await externalBase();
  const target = join(base, `bin-${binaries.version}-${process.platform}-${process.arch}`);
  if (!existsSync(target)) {
    const partial = `${target}.partial-${process.pid}`;
    await rm(partial, { recursive: true, force: true });
    await cp(binaries.nativeDir, partial, { recursive: true, verbatimSymlinks: true });
    await chmod(partial, 0o755);
    await rename(partial, target).catch(async (error: NodeJS.ErrnoException) => {
      // Another start copied it first: keep theirs.
      await rm(partial, { recursive: true, force: true });
      if (!existsSync(target)) throw error;
    });
  }
  const relocate = (file: string) => join(target, file.slice(binaries.nativeDir.length + 1));
  const copied = {
    ...binaries,
    initdb: relocate(binaries.initdb),
    postgres: relocate(binaries.postgres),
    nativeDir: target,
  };
  if (!runsAs(copied, user)) {
    throw new Error(
      `The postgres user cannot run the PostgreSQL binaries in ${binaries.nativeDir} nor their copy in ${target}. ` +
        "Run Skiff as a non-root user from a directory it owns, or set DATABASE_URL.",
    );
  }
  return copied;
}

/**
 * Where the cluster of data directory `root` lives: `<root>/postgres` when `user` (root's case) can reach it,
 * else `<externalBase>/data-<hash of root>/postgres` with `<root>/postgres` a symbolic link to it. A missing
 * link means the data directory was removed, so an external cluster left for that path is removed too.
 * @throws Error naming the directory and the fix when an existing in-place cluster is unreachable.
 */
export async function placeCluster(root: string, user: RunAs | undefined): Promise<string> {
  const inPlace = join(root, "postgres");
  const existing = await lstat(inPlace).catch(() => undefined);
  if (existing?.isSymbolicLink()) return resolve(root, await readlink(inPlace));
  if (!user) return inPlace;
  if (await traversable(dirname(root), user)) {
    await chmod(root, 0o755);
    return inPlace;
  }
  if (existing) {
    throw new Error(
      `The postgres user cannot reach the embedded PostgreSQL data in ${inPlace} (a directory above it is closed ` +
        `to other users). Allow it (chmod o+x on each directory above ${root}), or set SKIFF_DATA_DIR to a ` +
        "directory under a path other users may enter.",
    );
  }
  const external = join(await externalBase(), `data-${createHash("sha256").update(root).digest("hex").slice(0, 16)}`);
  await rm(external, { recursive: true, force: true });
  await mkdir(external, { mode: 0o755 });
  const cluster = join(external, "postgres");
  await mkdir(cluster, { mode: 0o700 });
  await chown(cluster, user.uid, user.gid);
  await symlink(cluster, inPlace);
  return cluster;
}
