/**
 * graphile-worker's own schema (`graphile_worker`) in Skiff's database, migrated at start-up beside the Knex
 * migrations (src/server/start.ts, `npm run migrate`, the tests' template database). Concurrent starts are safe:
 * graphile-worker detects a migration another instance applied and carries on.
 */
import { Logger, runMigrations } from "graphile-worker";
import pg from "pg";
import { JOB_SCHEMA } from "./job-queue.ts";

/** The part of a pino logger graphile-worker's messages go to. */
export interface JobLog {
  error(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
  debug(obj: object, msg?: string): void;
}

/**
 * A graphile-worker {@link Logger} writing to `log`. Its per-job chatter ("Completed task …", "Failed task …")
 * goes to debug: the runner logs each failure itself with the job's name and error.
 */
export function workerLogger(log: JobLog): Logger {
  return new Logger(() => (rawLevel, message, meta) => {
    const level = String(rawLevel);
    const obj = { worker: true, ...(meta?.error ? { err: meta.error } : {}) };
    if (level === "error" && !meta?.failure) log.error(obj, message);
    else if (level === "warning") log.warn(obj, message);
    else log.debug(obj, message);
  });
}

/** Creates or upgrades graphile-worker's schema in the database of `databaseUrl`. */
export async function migrateJobSchema(databaseUrl: string, log?: JobLog): Promise<void> {
  const pgPool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  // graphile-worker insists on error handlers; a failing migration rejects on its own.
  pgPool.on("error", () => {});
  pgPool.on("connect", (client) => client.on("error", () => {}));
  try {
    await runMigrations({
      pgPool,
      schema: JOB_SCHEMA,
      ...(log ? { logger: workerLogger(log) } : { logger: silentLogger }),
    });
  } finally {
    await pgPool.end();
  }
}

const silentLogger = new Logger(() => () => {});
