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
