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

/** Builds the check (no connection until the first `check()`); `timeoutMs` bounds each one (default 800). */
export function createReadinessCheck(databaseUrl: string, knex: Knex, timeoutMs = 800): ReadinessCheck {
  const open = () => {
    const opened = new pg.Pool({
      connectionString: databaseUrl,
      max: 1,
      connectionTimeoutMillis: timeoutMs,
      application_name: "skiff-readiness",
    });
    // A restart of the database ends the idle connection: the next check opens another.
    opened.on("error", () => {});
    return opened;
  };
  let pool = open();
  let migrated = false;
  return {
    async check() {
      const probe = bounded(
        pool.query("select 1").then(() => undefined),
        timeoutMs,
      );
      if (!(await probe).done) {
        // A failed probe leaves nothing behind for the next one: its connection (or the attempt to open one), still
        // pending after a database restart, would otherwise hold the only slot and time out every later check.
        const failed = pool;
        pool = open();
        failed.end().catch(() => {});
        return "database unreachable";
      }
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
