/**
 * The agent API rate limit (spec: Limits): a fixed window of one minute per token, counted in PostgreSQL
 * (`agent_rate_limits`, created by migration 20261122000400) so that every client of a token and every
 * server instance on the same database share one counter.
 */
import type { RateLimit } from "../../shared/rate-limit.ts";

/** Length of the rate-limit window, in seconds. */
export const AGENT_RATE_WINDOW_SECONDS = 60;

/**
 * The limit of every agent token: `perMinute` requests per one-minute window, counted under `agent:<token id>`.
 * The count is taken in the token's lookup statement (`findAgentCaller`).
 */
export function agentRateLimit(perMinute: number): RateLimit {
  return { table: "agent_rate_limits", prefix: "agent", points: perMinute, windowSeconds: AGENT_RATE_WINDOW_SECONDS };
}
