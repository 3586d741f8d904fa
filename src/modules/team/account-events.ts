/**
 * Skiff's own User & Access events (spec "Learning platform webhook events"): `user_signed_up`, `user_email_verified`,
 * `user_role_changed`, `user_invited_to_org`, `user_removed_from_org`, emitted by the team services and the
 * sign-in hooks to every organization the event concerns, as domain events (src/modules/events.ts: webhooks and
 * any other consumer subscribe there). Called with the action's transaction as `ctx.knex`, so an action that rolls
 * back sends nothing. Data shapes: src/shared/events/catalogue.ts.
 */

import type { Knex } from "knex";
import type { Role } from "../../auth/access/standing.ts";
import { organizationIdsOfUser } from "../access/index.ts";
import { type EventContext, events } from "../events.ts";
import { organizationNumber, userById } from "../organizations/index.ts";

type EmitContext = EventContext;

/** The spec's `user` reference `{ user_uuid, email, username }` of user `userId`, or null when it is gone. */
async function userReference(
  knex: Knex,
  userId: string,
): Promise<{ user_uuid: string; email: string; username: string } | null> {
  const u = await userById(knex, userId);
  return u ? { user_uuid: u.id, email: u.email, username: u.name ?? "" } : null;
}

type UserRef = NonNullable<Awaited<ReturnType<typeof userReference>>>;

async function orgNumber(ctx: EmitContext, organizationId: string): Promise<number | null> {
  return organizationNumber(ctx.knex, organizationId);
}

/** `{ changed_by: … }`-style optional actor, left out when unknown. */
async function actor(
  ctx: EmitContext,
  key: string,
  userId: string | null | undefined,
): Promise<Record<string, UserRef>> {
  const ref = userId ? await userReference(ctx.knex, userId) : null;
  return ref ? { [key]: ref } : {};
}

/**
 * `user_signed_up` or `user_email_verified` about `userId`, to each organization the user is a member of (a
 * brand-new account usually has none; one created by `signUpWithInvitation` has the inviting organization).
 */
export async function emitAccountEvent(
  ctx: EmitContext,
  event: "user_signed_up" | "user_email_verified",
  userId: string,
): Promise<void> {
  const user = await userReference(ctx.knex, userId);
  if (!user) return;
  const orgs = await organizationIdsOfUser(ctx.knex, userId);
  for (const organizationId of orgs) await events.emit(ctx, event, { organizationId, data: { user } });
}

/** `user_role_changed` to `organizationId`. */
export async function emitRoleChanged(
  ctx: EmitContext,
  e: { organizationId: string; userId: string; oldRole: Role; newRole: Role; changedBy?: string | null },
): Promise<void> {
  const [user, orgId] = [await userReference(ctx.knex, e.userId), await orgNumber(ctx, e.organizationId)];
  if (!user || orgId === null || e.oldRole === e.newRole) return;
  await events.emit(ctx, "user_role_changed", {
    organizationId: e.organizationId,
    data: {
      org_id: orgId,
      user,
      old_role: e.oldRole,
      new_role: e.newRole,
      ...(await actor(ctx, "changed_by", e.changedBy)),
    },
  });
}

/** `user_invited_to_org` to `organizationId`. */
export async function emitInvited(
  ctx: EmitContext,
  e: { organizationId: string; emails: string[]; invitationId: string; role: Role; invitedBy: string },
): Promise<void> {
  const [invitedBy, orgId] = [await userReference(ctx.knex, e.invitedBy), await orgNumber(ctx, e.organizationId)];
  if (!invitedBy || orgId === null) return;
  await events.emit(ctx, "user_invited_to_org", {
    organizationId: e.organizationId,
    data: {
      org_id: orgId,
      emails: e.emails,
      invite_code_uuid: e.invitationId,
      invited_by: invitedBy,
      role: e.role,
    },
  });
}

/** `user_removed_from_org` to `organizationId` (call before the membership row is deleted or after: both work). */
export async function emitRemoved(
  ctx: EmitContext,
  e: { organizationId: string; userId: string; removedBy?: string | null },
): Promise<void> {
  const [user, orgId] = [await userReference(ctx.knex, e.userId), await orgNumber(ctx, e.organizationId)];
  if (!user || orgId === null) return;
  await events.emit(ctx, "user_removed_from_org", {
    organizationId: e.organizationId,
    data: {
      org_id: orgId,
      user,
      ...(await actor(ctx, "removed_by", e.removedBy)),
    },
  });
}
