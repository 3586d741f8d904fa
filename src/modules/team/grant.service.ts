/**
 * Member grants (spec: "A member can additionally be limited to specific projects (permissions are granted per
 * project or service)"): a `member` with grants sees only the granted projects and applications; one never granted
 * anything, or whose last grant was revoked, sees every project; one whose granted projects and applications were
 * all deleted sees none (`members.limited_to_grants`). Owners and admins manage grants; only `member`s can be
 * limited.
 */

import { assertCan } from "../../auth/access/policy.ts";
import { isLimitableByGrants } from "../../auth/access/standing.ts";
import { publishAccessChange } from "../../shared/access-changes.ts";
import { BadUserInputError, NotFoundError } from "../../shared/errors.ts";
import { withTransaction } from "../../shared/transaction.ts";
import { insertGrantOnce, Member, MemberGrant } from "../access/index.ts";
import { auditedWriteRunner } from "../audit/index.ts";
import type { Context } from "../context.ts";
import { visibleMember } from "./member.service.ts";

/** Input of {@link grantAccess}: exactly one of `projectId` and `applicationId`. */
export interface GrantInput {
  memberId: string;
  projectId?: string | null;
  applicationId?: string | null;
}

/** What a grant limits a member to: exactly one of the two ids. */
export interface GrantTarget {
  projectId: string | null;
  applicationId: string | null;
}

/**
 * The target of a grant for a member of `organizationId` with `role`, checked: a `member` only, exactly one of a
 * project and an application of that organization (read through the request's loaders, with the caller's
 * visibility). Used by `grantAccess` and by invitations that carry grants.
 * @throws BadUserInputError (both or neither id; another role), NotFoundError (not in the organization).
 */
export async function checkedGrantTarget(
  ctx: Context,
  organizationId: string,
  role: Member["role"],
  input: { projectId?: string | null; applicationId?: string | null },
): Promise<GrantTarget> {
  const projectId = input.projectId ?? null;
  const applicationId = input.applicationId ?? null;
  if ((projectId === null) === (applicationId === null)) {
    throw new BadUserInputError("Give exactly one of projectId and applicationId", {
      formErrors: ["Give exactly one of projectId and applicationId"],
    });
  }
  if (!isLimitableByGrants(role)) {
    throw new BadUserInputError("Only members can be limited; owners and admins see every project", {
      fieldErrors: { memberId: ["Not a member with the role member"] },
    });
  }
  if (projectId) {
    const project = await ctx.loaders.projects.byId.load(projectId);
    if (project?.organizationId !== organizationId) throw new NotFoundError("Project", projectId);
  } else if (applicationId) {
    const app = await ctx.loaders.applications.byId.load(applicationId);
    if (app?.organizationId !== organizationId) throw new NotFoundError("Application", applicationId);
  }
  return { projectId, applicationId };
}

/**
 * `grantAccess`: limits a member to a project or an application of its organization; an identical existing
 * grant is returned as is.
 * @throws NotFoundError (member, or a project/application the caller cannot see in that organization),
 * ForbiddenError (members), BadUserInputError (both or neither target; the member is an owner or admin).
 */
export async function grantAccess(ctx: Context, input: GrantInput): Promise<MemberGrant> {
  const { member, access } = await visibleMember(ctx, input.memberId);
  assertCan(access, "team:manage");
  const { projectId, applicationId } = await checkedGrantTarget(ctx, member.organizationId, member.role, input);
  const existing = await MemberGrant.query(ctx.knex).findOne({ memberId: member.id, projectId, applicationId });
  if (existing) return existing;
  // Of concurrent grants of one target, one row is written; the others find it.
  // The grant made and the call's audit entry (naming it) in one statement.
  const withEntry = auditedWriteRunner(ctx, { namesChangedRows: true });
  const made = await insertGrantOnce(ctx.knex, member.id, { projectId, applicationId }, withEntry);
  const grant = await MemberGrant.query(ctx.knex).findOne({ memberId: member.id, projectId, applicationId });
  // Written, then revoked at once by another call: gone, as a read of it now would find.
  if (!grant) throw new NotFoundError("MemberGrant", (projectId ?? applicationId)!);
  if (!made) return grant;
  await publishAccessChange(ctx.services.pubsub, { userId: member.userId }, ctx.log);
  return grant;
}

/**
 * `revokeAccess`: removes a grant; revoking a member's last grant lifts the limit (the member sees every project
 * again), whereas grants that go with a deleted project or application leave the member limited.
 * @returns the grant id. @throws NotFoundError (unknown or invisible grant), ForbiddenError.
 */
export async function revokeAccess(ctx: Context, grantId: string): Promise<string> {
  const grant = await MemberGrant.query(ctx.knex).findById(grantId);
  const member = grant ? await Member.query(ctx.knex).findById(grant.memberId) : null;
  const access = member ? await ctx.scope.forOrg(member.organizationId) : null;
  if (!grant || !member || !access) throw new NotFoundError("MemberGrant", grantId);
  assertCan(access, "team:manage");
  await withTransaction(ctx, async (tx) => {
    // The member's row first: concurrent revocations of its last grants take turns, and the last one lifts the limit.
    await Member.query(tx.knex).findById(member.id).forUpdate();
    // Of concurrent revocations of one grant, the one whose statement removed the row answers; the others find it gone.
    if (!(await MemberGrant.query(tx.knex).deleteById(grantId))) throw new NotFoundError("MemberGrant", grantId);
    await Member.query(tx.knex)
      .findById(member.id)
      .whereNotExists(MemberGrant.query(tx.knex).where({ memberId: member.id }))
      .patch({ limitedToGrants: false });
  });
  await publishAccessChange(ctx.services.pubsub, { userId: member.userId }, ctx.log);
  return grantId;
}
