/**
 * Recovery of an embedded cluster left running by a Skiff process that died without stopping it (kill -9,
 * a crash): its `postmaster.pid` names a live postmaster while the Skiff recorded in `<dataDir>/postgres.owner`
 * is gone. Such a postmaster is shut down so that the next start begins cleanly.
 */
import { readFileSync } from "node:fs";
import { readFile, unlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

/** File recording which Skiff process started the running cluster: `<dataDir>/postgres.owner`. */
export function ownerFile(dataDir: string): string {
  return join(dataDir, "postgres.owner");
}

/** Records this process as the owner of the cluster of `dataDir`. */
export async function claimCluster(dataDir: string): Promise<void> {
  await writeFile(ownerFile(dataDir), `${process.pid}\n`, { mode: 0o600 });
}

/** Removes the owner record (after a clean stop). */
export async function releaseCluster(dataDir: string): Promise<void> {
  await unlink(ownerFile(dataDir)).catch(() => undefined);
}

/** `/proc/<pid>/stat` fields after the command name (state is [0], parent pid [1]), or undefined off Linux. */
function procStat(pid: number): string[] | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    return text.slice(text.lastIndexOf(")") + 2).split(" ");
  } catch {
    return undefined;
  }
}

/** True when `pid` is a live process (zombies, which only wait to be reaped, count as gone). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
  return procStat(pid)?.[0] !== "Z";
}

function commandOf(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/comm`, "utf8").trim();
  } catch {
    return undefined;
  }
}

async function waitGone(pid: number, ms: number): Promise<boolean> {
  for (let waited = 0; waited < ms; waited += 100) {
    if (!isAlive(pid)) return true;
    await sleep(100);
  }
  return false;
}

/**
 * Makes sure no postmaster of a dead Skiff holds `clusterDir`: stops it (fast shutdown, then immediate, then
 * SIGKILL), or removes a `postmaster.pid` naming a process that is not PostgreSQL (a reused pid).
 * Returns the pid of the postmaster it stopped, if any.
 * @throws Error naming the owner when the cluster is in use by a live Skiff process.
 */
export async function recoverOrphan(clusterDir: string, dataDir: string): Promise<number | undefined> {
  const pidFile = join(clusterDir, "postmaster.pid");
  const content = await readFile(pidFile, "utf8").catch(() => undefined);
  const postmaster = Number(content?.split("\n")[0]);
  if (!content || !Number.isInteger(postmaster) || postmaster <= 0 || !isAlive(postmaster)) return undefined;
  const command = commandOf(postmaster);
  if (command !== undefined && command !== "postgres") {
    await unlink(pidFile).catch(() => undefined);
    return undefined;
  }
  const owner = Number((await readFile(ownerFile(dataDir), "utf8").catch(() => "")).trim()) || undefined;
  const parent = procStat(postmaster)?.[1];
  const ownerAlive =
    owner !== undefined &&
    owner !== process.pid &&
    isAlive(owner) &&
    (parent === undefined || Number(parent) === owner);
  if (ownerAlive) {
    throw new Error(
      `The embedded PostgreSQL in ${clusterDir} is in use by Skiff process ${owner} (postmaster ${postmaster}). ` +
        "Stop that process first, or give this one another SKIFF_DATA_DIR and SKIFF_EMBEDDED_PG_PORT.",
    );
  }
  for (const [signal, ms] of [
    ["SIGINT", 30_000],
    ["SIGQUIT", 5_000],
    ["SIGKILL", 5_000],
  ] as const) {
    try {
      process.kill(postmaster, signal);
    } catch {
      break;
    }
    if (await waitGone(postmaster, ms)) break;
  }
  await releaseCluster(dataDir);
  return postmaster;
}
