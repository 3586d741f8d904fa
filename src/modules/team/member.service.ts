/**
 * Changing and removing members, and transferring ownership (spec Role table: owners and admins manage the team;
 * the owner cannot be removed or demoted except by transferring ownership). Rules are asked of src/auth/access/policy.ts.
 */

import { assertCan, isAssignableRole } from "../../auth/access/policy.ts";
import type { Role } from "../../auth/access/standing.ts";
import { publishAccessChange } from "../../shared/access-changes.ts";
import { BadUserInputError, ForbiddenError, NotFoundError } from "../../shared/errors.ts";
import { Member, organizationAccess } from "../access/index.ts";
import type { Context } from "../context.ts";
import { emitRemoved, emitRoleChanged } from "./account-events.ts";

/** The member `id` and the caller's access to its organization. @throws NotFoundError when not visible. */
export async function visibleMember(ctx: Context, id: string) {
  const member = await Member.query(ctx.knex).findById(id);
  const access = member ? await ctx.scope.forOrg(member.organizationId) : null;
  if (!member || !access) throw new NotFoundError("Member", id);
  return { member, access };
}

/**
 * `updateMemberRole`: to `admin` or `member`.
 * @throws NotFoundError (also when removed meanwhile), ForbiddenError (members; the owner's role), BadUserInputError
 * (role `owner`).
 */
export async function updateMemberRole(ctx: Context, memberId: string, role: Role): Promise<Member> {
  const { member, access } = await visibleMember(ctx, memberId);
  assertCan(access, "member:manage", { role: member.role });
  if (!isAssignableRole(role)) {
    throw new BadUserInputError("The owner role passes only by transferOwnership", {
      fieldErrors: { role: ["Must be admin or member"] },
    });
  }
  const updated = await ctx.knex.transaction(async (trx) => {
    // The row as it is now: removed meanwhile is not found; made owner meanwhile is checked again.
    const current = await Member.query(trx).findById(memberId).forUpdate();
    if (!current) throw new NotFoundError("Member", memberId);
    assertCan(access, "member:manage", { role: current.role });
    const changed = await Member.query(trx).patchAndFetchById(memberId, { role });
    await emitRoleChanged(
      { knex: trx, services: ctx.services },
      { ...member, oldRole: current.role, newRole: role, changedBy: ctx.caller?.userId },
    );
    return changed;
  });
  ctx.scope.invalidate();
  await publishAccessChange(ctx.services.pubsub, { userId: member.userId }, ctx.log);
  return updated;
}

/**
 * `removeMember`: deletes the membership (its grants and agent token cascade) and emits `user_removed_from_org`,
 * whose consumer deletes the person's API keys bound to the organization in the same transaction, so that nothing
 * of theirs works there any more — not even after a later re-invitation.
 * @returns the member id. @throws NotFoundError, ForbiddenError (members; the owner).
 */
export async function removeMember(ctx: Context, memberId: string): Promise<string> {
  const { member, access } = await visibleMember(ctx, memberId);
  assertCan(access, "member:manage", { role: member.role });
  await endMembership(ctx, member);
  return memberId;
}

/**
 * `leaveOrganization`: ends the caller's own membership of `organizationId` as {@link removeMember} does.
 * @returns the organization id. @throws NotFoundError (not a member), ForbiddenError (the owner).
 */
export async function leaveOrganization(ctx: Context, organizationId: string): Promise<string> {
  const access = await organizationAccess(ctx.scope, { organizationId, action: "organization:leave" });
  const member = await Member.query(ctx.knex).findById(access.memberId);
  if (!member) throw new NotFoundError("Organization", organizationId);
  await endMembership(ctx, member);
  return organizationId;
}

/**
 * Deletes `member` and emits `user_removed_from_org` in one transaction, then tells the person's open sessions.
 * @throws NotFoundError when the membership is gone already (of concurrent removals, one emits the event).
 */
async function endMembership(ctx: Context, member: Member): Promise<void> {
  await ctx.knex.transaction(async (trx) => {
    if (!(await Member.query(trx).deleteById(member.id))) throw new NotFoundError("Member", member.id);
    // Consumers delete what was theirs there: the api-keys module their keys (src/modules/api-keys, onEvent).
    await emitRemoved({ knex: trx, services: ctx.services }, { ...member, removedBy: ctx.caller?.userId });
  });
  ctx.scope.invalidate();
  await publishAccessChange(ctx.services.pubsub, { userId: member.userId }, ctx.log);
}

/**
 * `transferOwnership`: `memberId` becomes the owner, the calling owner an admin (one transaction). Of concurrent
 * transfers by one owner the first made wins; the others find the caller no longer owner.
 * @throws NotFoundError (also when removed meanwhile), ForbiddenError (not the owner, or not any more),
 * BadUserInputError (oneself).
 */
export async function transferOwnership(ctx: Context, memberId: string): Promise<Member> {
  const { member, access } = await visibleMember(ctx, memberId);
  assertCan(access, "ownership:transfer");
  if (member.id === access.memberId) {
    throw new BadUserInputError("You already own this organization", {
      fieldErrors: { memberId: ["Choose another member"] },
    });
  }
  const owner = await ctx.knex.transaction(async (trx) => {
    // The caller's row first (transfers of one owner take turns), as it is now: an owner no more since the request
    // began (a transfer that committed meanwhile) transfers nothing; a target removed meanwhile is not found.
    const caller = await Member.query(trx).findById(access.memberId).forUpdate();
    if (caller?.role !== "owner") throw new ForbiddenError("Only the organization's owner can transfer ownership");
    if (!(await Member.query(trx).findById(memberId).forUpdate())) throw new NotFoundError("Member", memberId);
    await Member.query(trx).patch({ role: "admin" }).where({ id: access.memberId });
    const promoted = await Member.query(trx).patchAndFetchById(memberId, { role: "owner" });
    const emit = { knex: trx, services: ctx.services };
    const changedBy = ctx.caller?.userId;
    await emitRoleChanged(emit, { ...member, oldRole: member.role, newRole: "owner", changedBy });
    const self = { organizationId: member.organizationId, userId: changedBy ?? "" };
    await emitRoleChanged(emit, { ...self, oldRole: "owner", newRole: "admin", changedBy });
    return promoted;
  });
  ctx.scope.invalidate();
  await publishAccessChange(ctx.services.pubsub, { userId: ctx.caller?.userId }, ctx.log);
  return owner;
}
