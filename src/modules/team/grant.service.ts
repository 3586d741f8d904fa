/**
 * Member grants (spec: "A member can additionally be limited to specific projects (permissions are granted per
 * project or service)"): a `member` with grants sees only the granted projects and applications; without grants
 * it sees every project. Owners and admins manage grants; only `member`s can be limited.
 */

import { assertCan } from "../../auth/access/policy.ts";
import { isLimitableByGrants } from "../../auth/access/standing.ts";
import { publishAccessChange } from "../../shared/access-changes.ts";
import { BadUserInputError, NotFoundError } from "../../shared/errors.ts";
import { Member, MemberGrant } from "../access/index.ts";
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
  const grant = await MemberGrant.query(ctx.knex)
    .insert({ memberId: member.id, projectId, applicationId })
    .returning("*");
  await publishAccessChange(ctx.services.pubsub, { userId: member.userId }, ctx.log);
  return grant;
}

/** `revokeAccess`. @returns the grant id. @throws NotFoundError (unknown or invisible grant), ForbiddenError. */
export async function revokeAccess(ctx: Context, grantId: string): Promise<string> {
  const grant = await MemberGrant.query(ctx.knex).findById(grantId);
  const member = grant ? await Member.query(ctx.knex).findById(grant.memberId) : null;
  const access = member ? await ctx.scope.forOrg(member.organizationId) : null;
  if (!grant || !access) throw new NotFoundError("MemberGrant", grantId);
  assertCan(access, "team:manage");
  // Of concurrent revocations, the one whose statement removed the row answers; the others find it gone.
  if (!(await MemberGrant.query(ctx.knex).deleteById(grantId))) throw new NotFoundError("MemberGrant", grantId);
  if (member) await publishAccessChange(ctx.services.pubsub, { userId: member.userId }, ctx.log);
  return grantId;
}
