/**
 * CPU time of the PostgreSQL backends serving one client: the backends are
 * found in `pg_stat_activity` by `application_name` (each benchmarked server runs with its own PGAPPNAME, which
 * node-postgres uses for every connection that names none), and their user + system time is read from
 * `/proc/<pid>/stat`. Works when PostgreSQL runs on this machine under a user whose /proc entries are readable
 * (the embedded server of bench/harness.ts); elsewhere the figures are null.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import pg from "pg";

/** Clock ticks per second of /proc's times (`getconf CLK_TCK`, 100 on Linux unless told otherwise). */
const TICKS_PER_SECOND = (() => {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** utime + stime of process `pid` in milliseconds; null when /proc has no readable entry for it. */
export function processCpuMs(pid: number): number | null {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return null;
  }
  // Fields after the command name (which may hold spaces and parentheses): state is field 3, utime 14, stime 15.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

/** CPU milliseconds per backend pid at one moment. */
export type BackendCpu = Map<number, number>;

/** Samples the backends of named clients; one monitoring connection of its own. */
export interface PgCpuSampler {
  /** CPU per backend of `applicationName` now, or null when a backend's /proc entry is unreadable. */
  sample(applicationName: string): Promise<BackendCpu | null>;
  close(): Promise<void>;
}

/**
 * Opens the sampler on `databaseUrl` (its own connection is named `bench-pg-cpu`).
 * @throws when the database is unreachable.
 */
export async function pgCpuSampler(databaseUrl: string): Promise<PgCpuSampler> {
  const client = new pg.Client({ connectionString: databaseUrl, application_name: "bench-pg-cpu" });
  await client.connect();
  return {
    async sample(applicationName) {
      const { rows } = await client.query<{ pid: number }>(
        "select pid from pg_stat_activity where application_name = $1",
        [applicationName],
      );
      const cpu: BackendCpu = new Map();
      for (const { pid } of rows) {
        const ms = processCpuMs(pid);
        if (ms === null) return null;
        cpu.set(pid, ms);
      }
      return cpu;
    },
    close: () => client.end(),
  };
}

/**
 * CPU milliseconds the backends spent between two samples: backends that appeared count from zero; backends gone
 * by `after` are not counted (pools keep their connections during a run, so this loses little).
 */
export function backendCpuDelta(before: BackendCpu | null, after: BackendCpu | null): number | null {
  if (!before || !after) return null;
  let ms = 0;
  for (const [pid, now] of after) ms += now - (before.get(pid) ?? 0);
  return ms;
}
