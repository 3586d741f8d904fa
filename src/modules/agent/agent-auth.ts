/**
 * Authentication of the agent API (spec: Authentication → Agent API; Errors → Agent API; Limits): an agent
 * token sent as `x-api-key: <token>` or `Authorization: Bearer <token>` (equivalent), looked up in
 * `agent_tokens` by hash. Session cookies and account API keys are not agent tokens and so are rejected here.
 * Each authenticated request counts against the token's rate limit.
 */

import type { Knex } from "knex";
import { apiKeyFromHeaders, type HeaderReader } from "../../auth/caller.ts";
import type { Config } from "../../config.ts";
import { UnauthenticatedError } from "../../shared/errors.ts";
import type { Principal, RememberedPrincipal } from "../access/index.ts";
import { agentRateLimit } from "./agent-rate-limit.ts";
import { findAgentCaller, rememberedAgentCaller } from "./agent-token.service.ts";

/**
 * The principal of an agent API request (`via: "agentToken"`, organization = the token's), or null when the
 * request carries no valid agent token (missing, revoked, expired, of another kind, membership removed). The request
 * counts against the token's rate limit unless `counted` is false (an MCP message that is not a tool call: only tool
 * calls are requests of the agent API).
 * @throws UnauthenticatedError when a counted request finds the token over `SKIFF_AGENT_RATE_LIMIT` requests in the
 * current minute.
 */
export async function authenticateAgent(
  services: { knex: Knex; config: Pick<Config, "SKIFF_AGENT_RATE_LIMIT"> },
  headers: Headers,
  counted = true,
): Promise<Principal | null> {
  const token = apiKeyFromHeaders(headers);
  if (!token) return null;
  const limit = services.config.SKIFF_AGENT_RATE_LIMIT;
  const caller = await findAgentCaller(services.knex, token, counted ? agentRateLimit(limit) : undefined);
  if (!caller) return null;
  if (caller.rateLimited) {
    throw new UnauthenticatedError(`Rate limit exceeded: ${limit} requests per minute per agent token`);
  }
  return caller.principal;
}

/**
 * The agent token of `headers` as this process resolved it before, to be confirmed (and counted against the rate
 * limit) by the statement that reads for the request; null when there is no token or it was not resolved here
 * before (then {@link authenticateAgent}).
 */
export function rememberedAgent(
  services: { knex: Knex; config: Pick<Config, "SKIFF_AGENT_RATE_LIMIT"> },
  headers: HeaderReader,
): RememberedPrincipal | null {
  const token = apiKeyFromHeaders(headers);
  return token
    ? rememberedAgentCaller(services.knex, token, agentRateLimit(services.config.SKIFF_AGENT_RATE_LIMIT))
    : null;
}
