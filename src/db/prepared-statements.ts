/**
 * Named prepared statements on `DATABASE_URL`: whether Skiff sends them, and a
 * `pg` client class for the pools of libraries that name their statements themselves (rate-limiter-flexible's
 * sign-in limiters) that sends those statements unnamed when Skiff does not.
 *
 * A transaction-mode pooler (PgBouncer before 1.21, or without `max_prepared_statements`) hands each transaction to
 * any server connection, so a statement prepared on one is unknown on the next ("prepared statement … does not
 * exist", a 500 that shows only when the pooler switches connections).
 */
import pg from "pg";

/**
 * Whether statements on `DATABASE_URL` may be named prepared statements: `SKIFF_PREPARED_READS` `true`/`1` and
 * `false`/`0` force it; `auto` (the default) prepares unless `DATABASE_SESSION_URL` says a pooler is in front.
 */
export function preparesStatements(config: { SKIFF_PREPARED_READS: string; DATABASE_SESSION_URL?: string }): boolean {
  const value = config.SKIFF_PREPARED_READS;
  return value === "auto" ? !config.DATABASE_SESSION_URL : value === "true" || value === "1";
}

/** A `pg.Client` that drops the `name` of every query config, so no statement is prepared on the server. */
export class UnnamedStatementsClient extends pg.Client {
  // biome-ignore lint/suspicious/noExplicitAny: pg's overloads (text, config, submittable) are passed through as is.
  override query(config: any, values?: any, callback?: any): any {
    if (
      config &&
      typeof config === "object" &&
      typeof config.name === "string" &&
      typeof config.submit !== "function"
    ) {
      const { name: _name, ...unnamed } = config;
      return super.query(unnamed, values, callback);
    }
    return super.query(config, values, callback);
  }
}

/** The `Client` option of a `pg.Pool` on `DATABASE_URL` for `config`: {@link UnnamedStatementsClient} when not preparing. */
export function poolClientFor(config: {
  SKIFF_PREPARED_READS: string;
  DATABASE_SESSION_URL?: string;
}): typeof pg.Client | undefined {
  return preparesStatements(config) ? undefined : UnnamedStatementsClient;
}
