/**
 * One statement on a connection of Knex's pool, sent by `pg` itself: through
 * Knex's raw query builder and runner (binding formatting, the runner's promise chain, the timeout wrapper, the
 * response post-processing) a compiled read's 4 KB statement cost 98–114 µs of Node CPU, through pg on the same pool
 * 43–50 µs (measured 27 November 2026 on a 2-core VM). Used for the statements every read request runs
 * (src/reads/statements.ts) and for a mutation's change with its audit entry (src/modules/audit/audit-mutations.ts);
 * everything else goes through Knex.
 *
 * What Knex does and this keeps: the pool and its connection checks (acquire/release through `knex.client`), the
 * `query` event (statement counters: `skiff_db_statements_total`, the tests' SQL counts), Knex's placeholder
 * grammar (`?`, converted once by {@link nativeStatement}), and the cancellation of a statement past its time
 * limit (`pg_cancel_backend` from a connection of its own, the connection discarded when that fails). What it
 * leaves out: `postProcessResponse` (the rows keep the statement's own column names — give them camelCase aliases)
 * and the SQL text in error messages.
 */
import type { Knex } from "knex";
import type pg from "pg";

/** A statement in pg's terms: `$n` placeholders and their values. */
export interface NativeStatement {
  text: string;
  values: unknown[];
}

/** A pooled pg connection with the marks Knex puts on it. */
type PooledConnection = pg.Client & { __knexUid?: string; __knexTxId?: string; __knex__disposed?: unknown };

/** The members of Knex's client (knex/lib/client.js, dialects/postgres) this file uses. */
interface KnexClient {
  acquireConnection(): Promise<PooledConnection>;
  releaseConnection(connection: PooledConnection): Promise<unknown>;
  cancelQuery(connection: PooledConnection): Promise<unknown>;
  emit(event: "query", query: object): boolean;
}

/** `sql` with Knex's `?` placeholders and `bindings` as pg runs them (Knex's own conversion). */
export function nativeStatement(knex: Knex, sql: string, bindings: readonly Knex.Value[]): NativeStatement {
  const native = knex
    .raw(sql, bindings as Knex.Value[])
    .toSQL()
    .toNative();
  return { text: native.sql, values: [...native.bindings] };
}

/** Thrown by {@link pooledQuery} when the statement ran past its time limit (it was cancelled). */
export class StatementTimeoutError extends Error {
  override readonly name = "StatementTimeoutError";
}

/**
 * Runs `statement` (`name`: its prepared statement name, or none) on a connection of `knex`'s pool and returns its
 * rows; `sql` and `bindings` (the `?` form) are what the `query` event reports. Past `timeoutMs` after it is sent
 * (null: no limit, as Knex's writes), the statement is cancelled and {@link StatementTimeoutError} thrown. `knex`
 * must not be a transaction (its connection is Knex's to guard: use Knex there).
 * @throws StatementTimeoutError; Knex's KnexTimeoutError when no pool connection frees up in time; pg's errors as
 * they are.
 */
export async function pooledQuery(
  knex: Knex,
  statement: NativeStatement,
  name: string | null,
  timeoutMs: number | null,
  reported: { sql: string; bindings: readonly unknown[] },
): Promise<Record<string, unknown>[]> {
  const client = knex.client as unknown as KnexClient;
  const connection = await client.acquireConnection();
  let timer: NodeJS.Timeout | undefined;
  try {
    const { __knexUid, __knexTxId } = connection;
    client.emit("query", { __knexUid, __knexTxId, method: "raw", sql: reported.sql, bindings: reported.bindings });
    const config: pg.QueryConfig = name
      ? { name, text: statement.text, values: statement.values }
      : { text: statement.text, values: statement.values };
    // pg's callback form: through its promise form, every result outlived two young-generation collections and
    // was promoted, so a read's answer text cost a mark-compact's work in the old generation.
    const running = new Promise<pg.QueryResult<Record<string, unknown>>>((resolve, reject) =>
      connection.query<Record<string, unknown>>(config, (error, result) => (error ? reject(error) : resolve(result))),
    );
    if (timeoutMs === null) return (await running).rows;
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new StatementTimeoutError(`statement ran past ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      const result = await Promise.race([running, expired]);
      return result.rows;
    } catch (error) {
      if (!(error instanceof StatementTimeoutError)) throw error;
      // The cancelled statement's own error is expected, not unhandled.
      running.catch(() => {});
      await client.cancelQuery(connection).catch(() => {
        // Not cancelled: the connection is busy until the statement ends; the pool discards it instead.
        connection.__knex__disposed = error;
      });
      throw error;
    }
  } finally {
    clearTimeout(timer);
    client.releaseConnection(connection).catch(() => {});
  }
}
