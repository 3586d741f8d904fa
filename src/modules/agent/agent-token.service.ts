/**
 * Agent tokens (spec: Authentication → Agent API, rule 1; Organization and access resources): read-only,
 * personal, one per person per organization. Creating one replaces the previous token at once (one upsert on
 * the unique (organization_id, user_id)); revoking deletes it at once; both need an active organization.
 * Creating one requires the AI assistant feature (`ai_assistant`) on the organization's plan.
 */
import type { Knex } from "knex";
import { type StandingColumns, standingFingerprintSql } from "../../auth/caller.ts";
import { newId } from "../../db/ids.ts";
import { BadUserInputError } from "../../shared/errors.ts";
import { type RateLimit, rateLimitCountSql } from "../../shared/rate-limit.ts";
import {
  type AccessScope,
  memberStandingJoinSql,
  type OrgAccess,
  type Principal,
  type RememberedPrincipal,
  requireActiveOrganization,
  requirePlanFeature,
  standingOf,
} from "../access/index.ts";
import { noteAuditTarget } from "../audit/index.ts";
import type { ServiceContext } from "../context.ts";
import type { AgentToken } from "./agent-token.model.ts";
import { generateAgentToken, hashAgentToken } from "./agent-token.secret.ts";

/** Plan feature that allows agent tokens. */
export const AI_ASSISTANT_FEATURE = "ai_assistant";

/** What the dashboard may see of a token (GraphQL `AgentToken`); never the secret or its hash. */
export interface AgentTokenView {
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  expiresAt: Date | null;
}

/** A token just created: the secret (shown once) and its view. */
export interface CreatedAgentToken {
  token: string;
  agentToken: AgentTokenView;
}

/** Options of {@link createAgentToken}. */
export interface CreateAgentTokenOptions {
  /** Lifetime in days, 1 to 365; null or undefined: never expires. */
  expiresInDays?: number | null;
}

/** The caller of an agent API request, resolved from a valid token. */
export interface AgentCaller {
  tokenId: string;
  principal: Principal;
  /** True when the lookup counted this request against a rate limit and the token is over it. */
  rateLimited: boolean;
}

const DAY_MS = 86_400_000;
const MAX_DAYS = 365;

function toView(t: Pick<AgentToken, "prefix" | "createdAt" | "lastUsedAt" | "expiresAt">): AgentTokenView {
  return { prefix: t.prefix, createdAt: t.createdAt, lastUsedAt: t.lastUsedAt, expiresAt: t.expiresAt };
}

/** The caller's membership in the active organization. @throws BadUserInputError when there is none. */
async function activeMembership(scope: AccessScope): Promise<OrgAccess & { userId: string }> {
  const access = await requireActiveOrganization(scope);
  return { ...access, userId: (scope.principal as Principal).userId };
}

/**
 * Creates (or replaces) the caller's token in the active organization.
 * @throws BadUserInputError for `expiresInDays` outside 1..365 or without an active organization;
 * ForbiddenError when the plan lacks {@link AI_ASSISTANT_FEATURE}.
 */
export async function createAgentToken(
  ctx: ServiceContext,
  options: CreateAgentTokenOptions = {},
): Promise<CreatedAgentToken> {
  const days = options.expiresInDays ?? null;
  if (days !== null && (!Number.isInteger(days) || days < 1 || days > MAX_DAYS)) {
    throw new BadUserInputError(`expiresInDays must be between 1 and ${MAX_DAYS}`, {
      fieldErrors: { expiresInDays: [`Must be an integer from 1 to ${MAX_DAYS}`] },
    });
  }
  const access = await activeMembership(ctx.scope);
  requirePlanFeature(access, AI_ASSISTANT_FEATURE, "Agent tokens");
  const secret = generateAgentToken();
  const fresh = {
    id: newId("agentToken"),
    memberId: access.memberId,
    tokenHash: secret.hash,
    prefix: secret.prefix,
    createdAt: new Date(),
    lastUsedAt: null,
    expiresAt: days === null ? null : new Date(Date.now() + days * DAY_MS),
  };
  // The view answered has no id: the audit entry is told the new row's.
  noteAuditTarget(ctx, fresh.id);
  await ctx
    .knex("agent_tokens")
    .insert({ ...fresh, organizationId: access.organizationId, userId: access.userId })
    .onConflict(["organization_id", "user_id"])
    .merge(Object.keys(fresh));
  return { token: secret.token, agentToken: toView(fresh) };
}

/** Revokes the caller's token in the active organization at once. @returns false when there was none. */
export async function revokeAgentToken(ctx: ServiceContext): Promise<boolean> {
  const access = await activeMembership(ctx.scope);
  const deleted = await ctx
    .knex("agent_tokens")
    .where({ organizationId: access.organizationId, userId: access.userId })
    .delete();
  return deleted > 0;
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
function agentCallerCtes(tokenHash: string, limit?: RateLimit, check = false) {
  const count = limit ? rateLimitCountSql(limit, "c.id", "from caller c") : null;
  const member = (m: string) =>
    `${m}.id = t.member_id and ${m}.user_id = t.user_id and ${m}.organization_id = t.organization_id`;
  return {
    sql: `with caller as (
      select t.id as "id", coalesce(t.last_used_at < now() - interval '1 minute', true) as "stale",
        ${standingFingerprintSql(["t.id", "t.user_id", "t.organization_id"], "s")} as "fingerprint"
        ${check ? "" : `, t.user_id as "userId", t.organization_id as "organizationId", s.*`}
      from agent_tokens t
      ${memberStandingJoinSql("s", member, check ? "version" : "standing")}
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
const MAX_REMEMBERED = 10_000;

/**
 * Resolves a presented secret to its caller, in one statement: null when no stored token has that hash, when it
 * has expired, or when its owner is no longer a member of its organization (spec: Errors → Agent API, 401). With
 * `limit`, the same statement counts the request against the token's rate limit (src/shared/rate-limit.ts), and
 * `rateLimited` says whether it is over. Records `lastUsedAt` at most once a minute (an extra UPDATE only then).
 */
export async function findAgentCaller(knex: Knex, token: string, limit?: RateLimit): Promise<AgentCaller | null> {
  const tokenHash = hashAgentToken(token);
  const ctes = agentCallerCtes(tokenHash, limit);
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
  if (!rateLimited) {
    rememberedTokens.set(tokenHash, row);
    if (rememberedTokens.size > MAX_REMEMBERED) rememberedTokens.delete(rememberedTokens.keys().next().value as string);
  }
  return {
    tokenId: row.id,
    principal: agentPrincipal(row),
    rateLimited,
  };
}

/** The principal of a token's row (a new object: its scope takes `access`). */
function agentPrincipal(row: AgentRow): Principal {
  return {
    userId: row.userId,
    organizationId: row.organizationId,
    via: "agentToken",
    agentTokenId: row.id,
    access: standingOf(row.organizationId, row),
  };
}

/**
 * The caller this process resolved from `token` before, to be confirmed by the statement that reads for the request
 * (see {@link RememberedPrincipal}); null when there is none. The wrapped statement resolves the token
 * again, reads only when the token's row is unchanged and, with `limit`, counts the request as
 * {@link findAgentCaller} does — after the read: the count's row lock lasts until the statement ends, so counting
 * first would make every request of one token wait for the others' reads (measured: 420 instead of 492 statements/s
 * of the 50-project tree on 10 connections, 2 cores). A request found over the limit is answered by the ordinary
 * path ({@link findAgentCaller}: counted once more, refused), and its read is not used; a token over its limit is
 * not remembered, so its later requests in the window are refused by that path alone, without a read.
 */
export function rememberedAgentCaller(knex: Knex, token: string, limit?: RateLimit): RememberedPrincipal | null {
  const tokenHash = hashAgentToken(token);
  const known = rememberedTokens.get(tokenHash);
  if (!known) return null;
  return {
    identity: known,
    principal: () => agentPrincipal(known),
    statement(sql, bindings) {
      const ctes = agentCallerCtes(tokenHash, limit, true);
      // The count is read in the projection, which PostgreSQL evaluates once the join (the read) has its row.
      return {
        sql: `${ctes.sql}
select c."fingerprint" as "callerFingerprint", c."stale" as "callerStale", c."id" as "callerTokenId", d.*,
  ${ctes.points} as "callerPoints"
from caller c left join lateral (select * from (${sql}) d0 where c."fingerprint" = ?) d on true`,
        bindings: [...ctes.bindings, ...bindings, known.fingerprint],
      };
    },
    async confirmed(row) {
      if (!row || row.callerFingerprint !== known.fingerprint) return null;
      if (limit && Number(row.callerPoints ?? 0) > limit.points) return null;
      await touchAgentToken(knex, { id: row.callerTokenId as string, stale: row.callerStale === true });
      return row;
    },
  };
}
