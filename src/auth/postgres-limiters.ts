/**
 * rate-limiter-flexible's PostgreSQL limiters on the `auth_attempt_limits` table, one per key prefix (cached): the
 * store of Skiff's attempt limits (attempt-limits.ts) and of better-auth's request limiter (request-limits.ts),
 * shared by every instance on the database.
 */
import type pg from "pg";
import { RateLimiterPostgres } from "rate-limiter-flexible";

/**
 * A factory on the auth pool `pool`: `limiter(prefix, points, durationSeconds)` returns the limiter of `prefix`
 * (created on first use; later calls with the same prefix get the same limiter).
 */
export function postgresLimiters(pool: pg.Pool) {
  const limiters = new Map<string, RateLimiterPostgres>();
  return (keyPrefix: string, points: number, duration: number): RateLimiterPostgres => {
    let found = limiters.get(keyPrefix);
    if (!found) {
      found = new RateLimiterPostgres({
        storeClient: pool,
        storeType: "pool",
        tableName: "auth_attempt_limits",
        tableCreated: true,
        keyPrefix,
        points,
        duration,
      });
      limiters.set(keyPrefix, found);
    }
    return found;
  };
}
