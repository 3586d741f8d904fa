/**
 * Transactions for service contexts: a service that must write atomically runs its work in the caller's
 * transaction when there is one, else in a new one. Jobs enqueued through the context's `knex` then commit or
 * roll back with that work.
 */
import type { Knex } from "knex";

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
