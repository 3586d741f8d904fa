/**
 * The agent API rate limit (spec: Limits): a fixed window of one minute per token, counted in PostgreSQL
 * (`agent_rate_limits`, created by migration 20261122000400) so that every client of a token and every
 * server instance on the same database share one counter.
 */
import type { Knex } from "knex";
import { RateLimiterPostgres, RateLimiterRes } from "rate-limiter-flexible";

/** Length of the rate-limit window, in seconds. */
export const AGENT_RATE_WINDOW_SECONDS = 60;

const limiters = new WeakMap<Knex, Map<number, RateLimiterPostgres>>();

/** The limiter of `knex`'s database for `perMinute` requests (one instance per pool and limit). */
function limiterFor(knex: Knex, perMinute: number): RateLimiterPostgres {
  let byLimit = limiters.get(knex);
  if (!byLimit) {
    byLimit = new Map();
    limiters.set(knex, byLimit);
  }
  let limiter = byLimit.get(perMinute);
  if (!limiter) {
    limiter = new RateLimiterPostgres({
      storeClient: knex,
      storeType: "knex",
      tableName: "agent_rate_limits",
      tableCreated: true,
      keyPrefix: "agent",
      points: perMinute,
      duration: AGENT_RATE_WINDOW_SECONDS,
    });
    byLimit.set(perMinute, limiter);
  }
  return limiter;
}

/**
 * Counts one request of token `tokenId` against `perMinute`.
 * @returns true when the request is within the limit, false when the token is over it.
 * @throws Error when the counter store fails (a database error, not a limit).
 */
export async function consumeAgentRequest(knex: Knex, tokenId: string, perMinute: number): Promise<boolean> {
  try {
    await limiterFor(knex, perMinute).consume(tokenId);
    return true;
  } catch (e) {
    if (e instanceof RateLimiterRes) return false;
    throw e;
  }
}
