/**
 * Transactions for service contexts: a service that must write atomically runs its work in the caller's
 * transaction when there is one, else in a new one. Jobs enqueued through the context's `knex` then commit or
 * roll back with that work.
 */
import type { Knex } from "knex";
import { isTransientConflict } from "../db/pg-errors.ts";

/** Any context that carries the database handle (the pool or a transaction). */
export interface HasKnex {
  knex: Knex;
}

/**
 * Runs `work` with `ctx.knex` being a transaction: the caller's own when `ctx.knex` already is one, otherwise a
 * new transaction that commits when `work` resolves and rolls back when it throws.
 */
export function withTransaction<C extends HasKnex, T>(
  ctx: C,
  work: (ctx: C & { knex: Knex.Transaction }) => Promise<T>,
): Promise<T> {
  if (ctx.knex.isTransaction) return work(ctx as C & { knex: Knex.Transaction });
  return ctx.knex.transaction((trx) => work(onTransaction(ctx, trx)));
}

/**
 * A copy of `ctx` whose `knex` is `trx`. Its prototype is kept: a request's context reads its loaders and logger
 * through accessors there (src/server/context.ts), which a spread (`{ ...ctx }`) would drop.
 */
export function onTransaction<C extends HasKnex>(ctx: C, trx: Knex.Transaction): C & { knex: Knex.Transaction } {
  return Object.assign(Object.create(Object.getPrototypeOf(ctx)) as C, ctx, { knex: trx });
}

/** Tries of {@link transactionRetryingConflicts}: the first and two more. */
const CONFLICT_TRIES = 3;

/**
 * `knex.transaction(handler, config)`, run again from its start (a new transaction, `handler` called anew) when it
 * fails with a deadlock or serialization failure ({@link isTransientConflict}): PostgreSQL rolled it back whole, and
 * two concurrent changes that lock rows in opposite orders (a project's delete cascading through what a create
 * references) would otherwise answer 500 to a request that succeeds on a second try. Waits 5–50 ms (random) before
 * each new try so the two do not meet again. `handler` must keep its effects inside the transaction.
 * @throws the last try's error, or at once any other error.
 */
export function transactionRetryingConflicts<T>(
  knex: Knex,
  handler: (trx: Knex.Transaction) => Promise<T>,
  config?: Knex.TransactionConfig,
): Promise<T> {
  return retryingConflicts(() => knex.transaction(handler, config));
}

/**
 * Runs `work` (one statement, or one transaction whose effects stay inside it) again while it fails with a deadlock
 * or serialization failure, as {@link transactionRetryingConflicts} does.
 * @throws the last try's error, or at once any other error.
 */
export async function retryingConflicts<T>(work: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (attempt >= CONFLICT_TRIES || !isTransientConflict(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 45));
    }
  }
}
