/**
 * The agent API rate limit (spec: Limits): a fixed window of one minute per token, counted in PostgreSQL
 * (`agent_rate_limits`, created by migration 20261122000400) so that every client of a token and every
 * server instance on the same database share one counter.
 */
import type { Knex } from "knex";
import { consumeRateLimit } from "../../shared/rate-limit.ts";

/** Length of the rate-limit window, in seconds. */
export const AGENT_RATE_WINDOW_SECONDS = 60;

/**
 * Counts one request of token `tokenId` against `perMinute`.
 * @returns true when the request is within the limit, false when the token is over it.
 * @throws Error when the counter store fails (a database error, not a limit).
 */
export async function consumeAgentRequest(knex: Knex, tokenId: string, perMinute: number): Promise<boolean> {
  const limit = {
    table: "agent_rate_limits",
    prefix: "agent",
    points: perMinute,
    windowSeconds: AGENT_RATE_WINDOW_SECONDS,
  };
  return (await consumeRateLimit(knex, limit, tokenId)).allowed;
}
