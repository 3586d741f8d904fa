/**
 * Storage of better-auth's own request limiter: in PostgreSQL, shared by every instance, instead of its
 * per-process memory. better-auth turns that limiter on under NODE_ENV=production (100 requests per 10 s per
 * address and path; sign-in, sign-up, password and e-mail changes 3 per 10 s; reset and verification mails 3 per
 * minute) and answers 429 with `X-Retry-After` above it. Each rule's window is one fixed window per key in the
 * `auth_attempt_limits` table (rate-limiter-flexible's atomic upsert), the table of Skiff's attempt limits
 * (attempt-limits.ts), under its own key prefix.
 */
import type { BetterAuthRateLimitStorage } from "@better-auth/core";
import type pg from "pg";
import { RateLimiterRes } from "rate-limiter-flexible";
import { postgresLimiters } from "./postgres-limiters.ts";

/**
 * better-auth's `rateLimit.customStorage` on the auth pool `pool`: `consume(key, { window, max })` counts one
 * request of `key` (better-auth's address + path) and allows it while the window's count is at most `max`.
 * @throws the database's error when PostgreSQL cannot be reached (better-auth then answers 500).
 */
export function sharedRequestLimits(pool: pg.Pool): BetterAuthRateLimitStorage {
  const limiter = postgresLimiters(pool);
  const limiterOf = (rule: { window: number; max: number }) =>
    limiter(`auth-request:${rule.window}:${rule.max}`, rule.max, rule.window);
  return {
    async consume(key, rule) {
      try {
        await limiterOf(rule).consume(key);
        return { allowed: true, retryAfter: null };
      } catch (error) {
        if (!(error instanceof RateLimiterRes)) throw error;
        return { allowed: false, retryAfter: Math.max(1, Math.ceil(error.msBeforeNext / 1000)) };
      }
    },
  };
}
