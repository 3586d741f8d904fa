/**
 * The agent token strategy (spec: Authentication → Agent API; Errors → Agent API; Limits): a token sent as
 * `x-api-key: <token>` or `Authorization: Bearer <token>` (equivalent) on the agent API alone, looked up in
 * `agent_tokens` by its hash in one statement that also counts the request against the token's rate limit (a fixed
 * window of one minute per token, counted in PostgreSQL's `agent_rate_limits`, so every client of a token and every
 * instance share one counter), remembered per process by the hash, and confirmed (and counted) inside the statement
 * that reads for the request. Session cookies and account API keys are not agent tokens and resolve to nothing here.
 */
import { hash } from "node:crypto";
import type { Knex } from "knex";
import { type RateLimit, rateLimitCountSql } from "../../shared/rate-limit.ts";
import { type StandingColumns, standingOf } from "../access/standing.ts";
import type { Caller } from "../caller.ts";
import {
  bearerCredential,
  type HeaderReader,
  type RememberedCaller,
  remember,
  rememberedCallerOf,
  type StandingJoin,
  standingFingerprintSql,
} from "./credential.ts";

/** Hex SHA-256 of a token, as stored in `agent_tokens.token_hash` (salt-free: tokens carry 256 random bits). */
export function hashAgentToken(token: string): string {
  return hash("sha256", token, "hex");
}

/** Length of the rate-limit window, in seconds. */
const AGENT_RATE_WINDOW_SECONDS = 60;

/** The limit of every agent token: `perMinute` requests per one-minute window, counted under `agent:<token id>`. */
function agentRateLimit(perMinute: number): RateLimit {
  return { table: "agent_rate_limits", prefix: "agent", points: perMinute, windowSeconds: AGENT_RATE_WINDOW_SECONDS };
}

/** What the agent token strategy needs besides the token. */
export interface AgentTokenOptions {
  /** The member standing's join (see {@link StandingJoin}). */
  standingJoin: StandingJoin;
  /** Requests allowed per token and minute (`SKIFF_AGENT_RATE_LIMIT`). */
  perMinute: number;
}

/** A token's row as the caller statement reads it (without the rate-limit count). */
interface AgentRow extends StandingColumns {
  id: string;
  userId: string;
  organizationId: string;
  /** True when `last_used_at` is older than a minute (or unset). */
  stale: boolean;
  /** The token and the member's id, role and standing version as one text: equal texts, equal callers (`standingFingerprintSql`). */
  fingerprint: string;
}

/**
 * The common table expressions resolving token hash `tokenHash`: `caller` (its {@link AgentRow}, no row for an
 * unknown or expired token or a member gone; with `check`, only its `id`, `stale` and `fingerprint`, read from the
 * token and the member row alone — what confirms a remembered caller) and, with `limit`, `counted` (the request
 * counted against the token's rate limit: `points` in the window). `points` is the SQL of the count (`null::int`
 * without a limit).
 */
function agentCallerCtes(standingJoin: StandingJoin, tokenHash: string, limit?: RateLimit, check = false) {
  const count = limit ? rateLimitCountSql(limit, "c.id", "from caller c") : null;
  const member = (m: string) =>
    `${m}.id = t.member_id and ${m}.user_id = t.user_id and ${m}.organization_id = t.organization_id`;
  return {
    sql: `with caller as (
      select t.id as "id", coalesce(t.last_used_at < now() - interval '1 minute', true) as "stale",
        ${standingFingerprintSql(["t.id", "t.user_id", "t.organization_id"], "s")} as "fingerprint"
        ${check ? "" : `, t.user_id as "userId", t.organization_id as "organizationId", s.*`}
      from agent_tokens t
      ${standingJoin("s", member, check ? "version" : "standing")}
      where t.token_hash = ? and (t.expires_at is null or t.expires_at > now())
      limit 1)
    ${count ? `, counted as (${count.sql})` : ""}`,
    bindings: [tokenHash, ...(count?.bindings ?? [])] as unknown[],
    points: count ? "(select points from counted)" : "null::int",
  };
}

/** Records a token's use (`last_used_at`) when its row says it is due (at most once a minute). */
async function touchAgentToken(knex: Knex, row: { id: string; stale: boolean }): Promise<void> {
  if (row.stale) await knex("agent_tokens").where("id", row.id).update({ lastUsedAt: knex.fn.now() });
}

/** Callers resolved by this process, by token hash (the oldest go first past the bound); never trusted alone. */
const rememberedTokens = new Map<string, AgentRow>();

/** The caller of a token's row (a new object: its scope takes `access`). */
function agentCaller(row: AgentRow): Caller {
  const access = standingOf(row.organizationId, row);
  return {
    userId: row.userId,
    organizationId: row.organizationId,
    role: access?.role ?? null,
    memberId: row.memberId,
    via: "agentToken",
    agentTokenId: row.id,
    access,
  };
}

/** An agent token's caller, and whether the request that presented it is over the token's rate limit. */
export interface AgentTokenResolution {
  caller: Caller;
  /** True when the lookup counted this request against the rate limit and the token is over it. */
  rateLimited: boolean;
}

/**
 * Resolves the agent token of `headers` to its caller, in one statement: null when there is no bearer credential,
 * when no stored token has its hash, when it has expired, or when its owner is no longer a member of its
 * organization (spec: Errors → Agent API, 401). When `counted` (an MCP message that is not a tool call is not: only
 * tool calls are requests of the agent API), the same statement counts the request against the token's rate limit
 * (src/shared/rate-limit.ts), and `rateLimited` says whether it is over. Records `lastUsedAt` at most once a minute
 * (an extra UPDATE only then).
 */
export async function callerFromAgentToken(
  knex: Knex,
  headers: HeaderReader,
  options: AgentTokenOptions,
  counted = true,
): Promise<AgentTokenResolution | null> {
  const token = bearerCredential(headers);
  if (!token) return null;
  const limit = counted ? agentRateLimit(options.perMinute) : undefined;
  const tokenHash = hashAgentToken(token);
  const ctes = agentCallerCtes(options.standingJoin, tokenHash, limit);
  const result: { rows: Array<AgentRow & { points: number | null }> } = await knex.raw(
    `${ctes.sql} select c.*, ${ctes.points} as "points" from caller c`,
    ctes.bindings as Knex.Value[],
  );
  const row = result.rows[0];
  rememberedTokens.delete(tokenHash);
  if (!row) return null;
  await touchAgentToken(knex, row);
  const rateLimited = limit !== undefined && (row.points ?? 0) > limit.points;
  // Over the limit: not remembered, so that the window's later requests are refused here, without a read.
  if (!rateLimited) remember(rememberedTokens, tokenHash, row);
  return { caller: agentCaller(row), rateLimited };
}

/**
 * The caller this process resolved from the agent token of `headers` before, to be confirmed by the statement that
 * reads for the request (see {@link RememberedCaller}); null when there is none. The wrapped statement resolves the
 * token again, reads only when the token's row is unchanged and counts the request as {@link callerFromAgentToken}
 * does — after the read: the count's row lock lasts until the statement ends, so counting first would make every
 * request of one token wait for the others' reads (measured: 420 instead of 492 statements/s of the 50-project tree
 * on 10 connections, 2 cores). A request found over the limit is answered by the ordinary path (counted once more,
 * refused), and its read is not used; a token over its limit is not remembered, so its later requests in the window
 * are refused by that path alone, without a read.
 */
export function rememberedAgentToken(
  knex: Knex,
  headers: HeaderReader,
  options: AgentTokenOptions,
): RememberedCaller | null {
  const token = bearerCredential(headers);
  if (!token) return null;
  const tokenHash = hashAgentToken(token);
  const known = rememberedTokens.get(tokenHash);
  if (!known) return null;
  const limit = agentRateLimit(options.perMinute);
  const check = agentCallerCtes(options.standingJoin, tokenHash, limit, true);
  return rememberedCallerOf({
    identity: known,
    caller: () => agentCaller(known),
    fingerprint: known.fingerprint,
    check,
    // The count is read in the projection, which PostgreSQL evaluates once the join (the read) has its row.
    columns: `, c."stale" as "callerStale", c."id" as "callerTokenId", ${check.points} as "callerPoints"`,
    async accept(row) {
      if (Number(row.callerPoints ?? 0) > limit.points) return false;
      await touchAgentToken(knex, { id: row.callerTokenId as string, stale: row.callerStale === true });
      return true;
    },
  });
}
