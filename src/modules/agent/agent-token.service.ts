/**
 * Agent tokens (spec: Authentication → Agent API, rule 1; Organization and access resources): read-only,
 * personal, one per person per organization. Creating one replaces the previous token at once (one upsert on
 * the unique (organization_id, user_id)); revoking deletes it at once; both need an active organization.
 * Creating one requires the AI assistant feature (`ai_assistant`) on the organization's plan.
 */
import { assertCan, assertSignedIn } from "../../auth/access/policy.ts";
import type { OrgAccess } from "../../auth/access/standing.ts";
import type { Caller } from "../../auth/caller.ts";
import { newId } from "../../db/ids.ts";
import { BadUserInputError } from "../../shared/errors.ts";
import { type AccessScope, organizationAccess } from "../access/index.ts";
import { noteAuditTarget, writeWithAuditEntry } from "../audit/index.ts";
import type { ServiceContext } from "../context.ts";
import type { AgentToken } from "./agent-token.model.ts";
import { generateAgentToken } from "./agent-token.secret.ts";

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

const DAY_MS = 86_400_000;
const MAX_DAYS = 365;

function toView(t: Pick<AgentToken, "prefix" | "createdAt" | "lastUsedAt" | "expiresAt">): AgentTokenView {
  return { prefix: t.prefix, createdAt: t.createdAt, lastUsedAt: t.lastUsedAt, expiresAt: t.expiresAt };
}

/** The caller's membership in the active organization. @throws BadUserInputError when there is none. */
async function activeMembership(scope: AccessScope): Promise<OrgAccess & { userId: string }> {
  const access = await organizationAccess(scope);
  return { ...access, userId: (scope.caller as Caller).userId };
}

/**
 * Creates (or replaces) the caller's token in the active organization; a signed-in person only (spec: made under
 * Settings → AI).
 * @throws BadUserInputError for `expiresInDays` outside 1..365 or without an active organization;
 * ForbiddenError for an API key, or when the plan lacks {@link AI_ASSISTANT_FEATURE}.
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
  assertSignedIn(ctx.caller as Caller, "agentToken:create");
  assertCan(access, "plan:feature", { feature: AI_ASSISTANT_FEATURE, what: "Agent tokens" });
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
  // The view answered has no id: the audit entry is told the new row's (the statement's entry reads it too).
  noteAuditTarget(ctx, fresh.id);
  await writeWithAuditEntry(
    ctx,
    ctx
      .knex("agent_tokens")
      .insert({ ...fresh, organizationId: access.organizationId, userId: access.userId })
      .onConflict(["organization_id", "user_id"])
      .merge(Object.keys(fresh))
      .returning("id"),
  );
  return { token: secret.token, agentToken: toView(fresh) };
}

/** Revokes the caller's token in the active organization at once. @returns false when there was none. */
export async function revokeAgentToken(ctx: ServiceContext): Promise<boolean> {
  const access = await activeMembership(ctx.scope);
  const deleted = await writeWithAuditEntry<{ id: string }>(
    ctx,
    ctx
      .knex("agent_tokens")
      .where({ organizationId: access.organizationId, userId: access.userId })
      .delete()
      .returning("id"),
    { namesChangedRows: true },
  );
  // The entry names the token revoked (the call names none: it is the caller's own); the statement's entry reads it.
  for (const { id } of deleted) noteAuditTarget(ctx, id);
  return deleted.length > 0;
}
