/**
 * The database half of `/readyz`: a connection of its own (not the request pool, which a burst of
 * requests after an outage can hold for seconds), `select 1` answered within `timeoutMs`, and the migrations checked
 * until they are found current (they stay so while the process runs: a newer release migrating the database is
 * another process's concern).
 */
import type { Knex } from "knex";
import pg from "pg";
import { migrationsCurrent } from "../db/knex.ts";
import { bounded } from "../shared/bounded.ts";

/** What the database says about readiness. */
export type DatabaseReadiness = "ready" | "database unreachable" | "migrations pending";

/** A readiness check on `databaseUrl`; `close()` releases its connection. */
export interface ReadinessCheck {
  /** Never throws; answers within `timeoutMs` (plus the migrations check on its first successes). */
  check(): Promise<DatabaseReadiness>;
  close(): Promise<void>;
}

/**
 * How long the check's connection may take to open, ms: longer than one check's bound, so that after a database
 * restart, on a loaded machine, a slow connection still opens (the checks meanwhile wait for the same attempt) and
 * serves the checks after it.
 */
const CONNECT_TIMEOUT_MS = 10_000;

/** Builds the check (no connection until the first `check()`); `timeoutMs` bounds each one (default 800). */
export function createReadinessCheck(databaseUrl: string, knex: Knex, timeoutMs = 800): ReadinessCheck {
  const open = () => {
    const opened = new pg.Pool({
      connectionString: databaseUrl,
      max: 1,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      application_name: "skiff-readiness",
    });
    // A restart of the database ends the idle connection: the next check opens another.
    opened.on("error", () => {});
    return opened;
  };
  let pool = open();
  /** The probe in flight, shared by the checks made while it is: they never queue behind one another. */
  let inflight: { answered: Promise<unknown>; since: number } | undefined;
  let migrated = false;
  return {
    async check() {
      // A probe pending past any connection's time is stuck (a connection that never answers): its pool is left.
      if (inflight && Date.now() - inflight.since > CONNECT_TIMEOUT_MS + timeoutMs) {
        const stuck = pool;
        pool = open();
        inflight = undefined;
        stuck.end().catch(() => {});
      }
      if (!inflight) {
        const probe = { answered: pool.query("select 1"), since: Date.now() };
        inflight = probe;
        probe.answered
          .then(
            () => undefined,
            () => undefined,
          )
          .finally(() => {
            if (inflight === probe) inflight = undefined;
          });
      }
      if (!(await bounded(inflight.answered, timeoutMs)).done) return "database unreachable";
      if (!migrated) {
        const current = await bounded(
          migrationsCurrent(knex).then((answer) => {
            migrated = answer;
          }),
          timeoutMs,
        );
        if (!current.done) return "database unreachable";
        if (!migrated) return "migrations pending";
      }
      return "ready";
    },
    close: () => pool.end().catch(() => {}),
  };
}
