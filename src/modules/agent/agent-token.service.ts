/**
 * Agent tokens (spec: Authentication → Agent API, rule 1; Organization and access resources): read-only,
 * personal, one per person per organization. Creating one replaces the previous token at once (one upsert on
 * the unique (organization_id, user_id)); revoking deletes it at once; both need an active organization.
 * Creating one requires the AI assistant feature (`ai_assistant`) on the organization's plan.
 */
import type { Knex } from "knex";
import type { StandingColumns } from "../../auth/caller.ts";
import { newId } from "../../db/ids.ts";
import { BadUserInputError } from "../../shared/errors.ts";
import { type RateLimit, rateLimitCountSql } from "../../shared/rate-limit.ts";
import {
  type AccessScope,
  memberStandingJoinSql,
  type OrgAccess,
  type Principal,
  requireActiveOrganization,
  requirePlanFeature,
  standingOf,
} from "../access/index.ts";
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

/**
 * Resolves a presented secret to its caller, in one statement: null when no stored token has that hash, when it
 * has expired, or when its owner is no longer a member of its organization (spec: Errors → Agent API, 401). With
 * `limit`, the same statement counts the request against the token's rate limit (src/shared/rate-limit.ts), and
 * `rateLimited` says whether it is over. Records `lastUsedAt` at most once a minute (an extra UPDATE only then).
 */
export async function findAgentCaller(knex: Knex, token: string, limit?: RateLimit): Promise<AgentCaller | null> {
  const count = limit ? rateLimitCountSql(limit, "c.id", "from caller c") : null;
  const result: {
    rows: Array<
      {
        id: string;
        userId: string;
        organizationId: string;
        stale: boolean;
        points: number | null;
        // The member's standing, so that the request's access scope needs no second statement (issue 15).
      } & StandingColumns
    >;
  } = await knex.raw(
    `with caller as (
      select t.id as "id", t.user_id as "userId", t.organization_id as "organizationId",
        coalesce(t.last_used_at < now() - interval '1 minute', true) as "stale", s.*
      from agent_tokens t
      ${memberStandingJoinSql("s", (m) => `${m}.id = t.member_id and ${m}.user_id = t.user_id and ${m}.organization_id = t.organization_id`)}
      where t.token_hash = ? and (t.expires_at is null or t.expires_at > now())
      limit 1)
    ${count ? `, counted as (${count.sql})` : ""}
    select c.*, ${count ? "(select points from counted)" : "null::int"} as "points" from caller c`,
    [hashAgentToken(token), ...(count?.bindings ?? [])],
  );
  const row = result.rows[0];
  if (!row) return null;
  if (row.stale) await knex("agent_tokens").where("id", row.id).update({ lastUsedAt: knex.fn.now() });
  const access = standingOf(row.organizationId, row);
  return {
    tokenId: row.id,
    principal: { userId: row.userId, organizationId: row.organizationId, via: "agentToken", access },
    rateLimited: limit !== undefined && (row.points ?? 0) > limit.points,
  };
}
