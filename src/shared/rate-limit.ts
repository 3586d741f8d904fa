/**
 * Fixed-window rate limits counted in PostgreSQL (rate-limiter-flexible), so every instance on one database shares
 * each counter. One limiter per pool, table, key prefix, size and window, created on first use.
 */
import type { Knex } from "knex";
import { RateLimiterPostgres, RateLimiterRes } from "rate-limiter-flexible";

/** Where a limit is counted and how large it is. */
export interface RateLimit {
  /** Counter table (created by a migration). */
  table: string;
  /** Namespace of the keys inside the table (e.g. `agent`, `deploy`). */
  prefix: string;
  /** Calls allowed per window. */
  points: number;
  /** Window length, in seconds. */
  windowSeconds: number;
}

/** The outcome of one counted call: allowed, or refused with the seconds until the window frees a slot (≥ 1). */
export type RateLimitResult = { allowed: true } | { allowed: false; retryAfterSeconds: number };

const limiters = new WeakMap<Knex, Map<string, RateLimiterPostgres>>();

function limiterFor(pool: Knex, limit: RateLimit): RateLimiterPostgres {
  let byLimit = limiters.get(pool);
  if (!byLimit) {
    byLimit = new Map();
    limiters.set(pool, byLimit);
  }
  const id = `${limit.table}|${limit.prefix}|${limit.points}|${limit.windowSeconds}`;
  let limiter = byLimit.get(id);
  if (!limiter) {
    limiter = new RateLimiterPostgres({
      storeClient: pool,
      storeType: "knex",
      tableName: limit.table,
      tableCreated: true,
      keyPrefix: limit.prefix,
      points: limit.points,
      duration: limit.windowSeconds,
    });
    byLimit.set(id, limiter);
  }
  return limiter;
}

/**
 * Counts one call of `key` against `limit` on `pool` (the instance's pool, never a transaction).
 * @throws Error when the counter store fails (a database error, not a limit).
 */
export async function consumeRateLimit(pool: Knex, limit: RateLimit, key: string): Promise<RateLimitResult> {
  try {
    await limiterFor(pool, limit).consume(key);
    return { allowed: true };
  } catch (e) {
    if (!(e instanceof RateLimiterRes)) throw e;
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(e.msBeforeNext / 1000)) };
  }
}

/** An SQL statement part and its `?` bindings, in order. */
export interface SqlWithBindings {
  sql: string;
  bindings: Array<string | number>;
}

/** The statement's time on the database's clock as epoch milliseconds (the unit of the `expire` column). */
const NOW_MS_SQL = "(extract(epoch from now()) * 1000)::bigint";

/**
 * The data-modifying statement counting one call against `limit` for the key `keySql` (an SQL text expression
 * over the rows of `fromSql`, e.g. `c.id` over `from caller c`), `returning points` (the calls counted in the
 * current window, this one included): the upsert of rate-limiter-flexible's RateLimiterPostgres on the same table
 * layout and keys (`<prefix>:<key>`, `expire` in epoch milliseconds, the window restarting once expired), for a
 * caller that folds the count into the statement it runs anyway (one round trip instead of two). Its
 * time is the database's (`now()`, the statement's start), not a binding: the statement's text and bindings stay
 * valid however long they are reused (a remembered caller's kept statement, src/reads/planner.ts), and
 * every instance counts windows on one clock. The transaction it runs in commits without waiting for its WAL to
 * reach the disk (`synchronous_commit` off for that transaction only): a count is not worth a disk flush per
 * request (measured on this VM's disk: 378 → 270 µs per count), and a database crash loses at most the last fraction
 * of a second of counts — a few more calls let through, never a refusal. Use it as a CTE, in a transaction that
 * writes nothing else (a single statement, as its callers run it); the call is over the limit when `points` exceeds
 * `limit.points`. The row stays locked until the transaction ends.
 */
export function rateLimitCountSql(limit: RateLimit, keySql: string, fromSql: string): SqlWithBindings {
  const t = limit.table;
  return {
    sql: `insert into ${t} (key, points, expire)
      select tally.key, 1, tally.expire from (select ? || ${keySql} as key, ${NOW_MS_SQL} + ?::bigint as expire
        ${fromSql}) tally
      where set_config('synchronous_commit', 'off', true) is not null
      on conflict (key) do update set
        points = case when ${t}.expire <= ${NOW_MS_SQL} then 1 else ${t}.points + 1 end,
        expire = case when ${t}.expire <= ${NOW_MS_SQL} then ${NOW_MS_SQL} + ?::bigint else ${t}.expire end
      returning points`,
    bindings: [`${limit.prefix}:`, limit.windowSeconds * 1000, limit.windowSeconds * 1000],
  };
}
