/**
 * How compiled reads run: one statement returning the answer's JSON as text, under the
 * execution time limit, optionally as a named prepared statement so that PostgreSQL plans a repeated operation
 * once per connection instead of on every request. Used by the one-statement answer of a whole query
 * (planner.ts) and by the executor's reads (resolvers.ts): one implementation.
 */
import { createHash } from "node:crypto";
import type { Knex } from "knex";
import { type NativeStatement, nativeStatement, pooledQuery, StatementTimeoutError } from "../db/pooled-query.ts";
import { timeLimitError } from "../shared/errors.ts";

/** Distinct statements an instance prepares at most (each connection keeps the ones it ran: bounded memory). */
const MAX_PREPARED = 200;
/** Uses of a statement text before it is prepared (one-off operations are not kept on the connections). */
const PREPARE_AFTER = 3;

/** How statements run: the execution time limit (ms) and whether repeated ones are prepared. */
export interface ReadStatementOptions {
  timeoutMs: number;
  prepare: boolean;
}

/** Use counts of statement texts not prepared yet, and the names of prepared ones (by text). */
const uses = new Map<string, number>();
const prepared = new Map<string, string>();

/** The prepared statement name of `sql`, or null while it is not (yet) worth preparing. */
function preparedName(sql: string): string | null {
  const known = prepared.get(sql);
  if (known) return known;
  if (prepared.size >= MAX_PREPARED) return null;
  const n = (uses.get(sql) ?? 0) + 1;
  if (n < PREPARE_AFTER) {
    // The counts of texts never repeated are forgotten once there are many.
    if (uses.size >= 10 * MAX_PREPARED) uses.clear();
    uses.set(sql, n);
    return null;
  }
  uses.delete(sql);
  const name = `skiff_read_${createHash("sha1").update(sql).digest("hex").slice(0, 24)}`;
  prepared.set(sql, name);
  return name;
}

/**
 * Where a statement reused as is (the same text and bindings, e.g. a remembered caller's compiled read) keeps its
 * prepared name once it has one and its pg form, so that neither is worked out again on every run.
 */
export interface PreparedMemo {
  preparedName?: string;
  native?: NativeStatement;
}

/**
 * Runs the read statement `sql` (Knex's `?` placeholders; one row, one text column `data` or the caller
 * confirmation's columns, named as the statement names them) with `bindings` on `knex` (the pool or the caller's
 * transaction) and returns its row. `memo`: the statement's {@link PreparedMemo} when its text and bindings are
 * reused as is. On the pool the statement goes to pg directly (src/db/pooled-query.ts: about a fifth of the Node
 * CPU of a small read was Knex's); in a transaction through Knex.
 * @throws the `EXECUTION_TIME_LIMIT` GraphQL error once `options.timeoutMs` has passed: the statement is cancelled,
 * and an answer that arrives after the deadline is not used either (on a busy machine the answer's socket event can
 * be handled before the due timer, so the deadline means the same whichever comes first); database errors as they
 * are.
 */
export async function runReadStatement(
  knex: Knex,
  sql: string,
  bindings: readonly Knex.Value[],
  options: ReadStatementOptions,
  memo?: PreparedMemo,
): Promise<Record<string, unknown>> {
  let name: string | null = null;
  if (options.prepare) {
    name = memo?.preparedName ?? preparedName(sql);
    if (memo && name) memo.preparedName = name;
  }
  const started = performance.now();
  try {
    let row: Record<string, unknown>;
    if (knex.isTransaction) {
      let query = knex.raw(sql, bindings as Knex.Value[]);
      if (name) query = query.options({ name });
      row = (await query.timeout(options.timeoutMs, { cancel: true })).rows[0];
    } else {
      const native = memo?.native ?? nativeStatement(knex, sql, bindings);
      if (memo) memo.native = native;
      // A confirming statement answers no row when the credential no longer resolves (readFor).
      row = (await pooledQuery(knex, native, name, options.timeoutMs, { sql, bindings }))[0] as Record<string, unknown>;
    }
    if (performance.now() - started > options.timeoutMs) throw timeLimitError(options.timeoutMs);
    return row;
  } catch (error) {
    if (error instanceof StatementTimeoutError) throw timeLimitError(options.timeoutMs);
    if (error instanceof Error && error.name === "KnexTimeoutError") throw timeLimitError(options.timeoutMs);
    throw error;
  }
}
