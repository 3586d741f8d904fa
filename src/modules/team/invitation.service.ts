/**
 * Sending, resending and cancelling invitations, and reading what a link leads to (spec: Invitation states;
 * "Resending the e-mail keeps the same link and expiry"; "A link is reported invalid when expired, cancelled
 * or already used"; lifetime 48 hours). Times come from `ctx.services.now()` so tests can move the clock.
 * Accepting lives in invitation-accept.service.ts.
 */

import type { Knex } from "knex";
import { z } from "zod";
import { assertCan, can, isAssignableRole } from "../../auth/access/policy.ts";
import { isLimitableByGrants, type Role } from "../../auth/access/standing.ts";
import { baseUrlOf } from "../../auth/auth.ts";
import { BadUserInputError, ConflictError, NotFoundError } from "../../shared/errors.ts";
import { parseInput } from "../../shared/validate.ts";
import { memberAmong, organizationAccess } from "../access/index.ts";
import { writeModelsWithAuditEntry } from "../audit/index.ts";
import type { Context, ServiceContext } from "../context.ts";
import { enqueueMail } from "../mail/index.ts";
import { findUserByEmail, lockOrganization, Organization, User, userIdsWithEmail } from "../organizations/index.ts";
import { emitInvited } from "./account-events.ts";
import { checkedGrantTarget } from "./grant.service.ts";
import {
  INVITATION_LIFETIME_MS,
  Invitation,
  type InvitationLinkRow,
  type InvitationStatus,
  invitationStatus,
  type PendingGrant,
} from "./invitation.model.ts";
import { invitationMail } from "./invitation-mail.ts";
import { hashInvitationToken, invitationLink, newInvitationToken } from "./invitation-token.ts";

/** E-mail addresses as stored on users and invitations: trimmed, lower-case. */
export const emailAddress = z.string().trim().toLowerCase().email("Not an e-mail address").max(254);

const inviteInput = z.object({
  organizationId: z.string().nullish(),
  email: emailAddress,
  role: z.enum(["owner", "admin", "member"]).refine((r) => isAssignableRole(r), {
    message: "Invite as admin or member; the owner role passes only by transferOwnership",
  }),
});

/** The link of `invitation` (decrypting its token), or null when it has no token. */
function linkOf(ctx: Context, invitation: Pick<Invitation, "tokenEncrypted">): string | null {
  if (!invitation.tokenEncrypted) return null;
  return invitationLink(baseUrlOf(ctx.services.config), ctx.services.secrets.decrypt(invitation.tokenEncrypted));
}

/** Enqueues the invitation mail through `db` (inside the caller's transaction when there is one). */
async function mailInvitation(ctx: Context, db: Knex, invitation: Invitation, link: string): Promise<void> {
  const [org, inviter] = await Promise.all([
    Organization.query(db).findById(invitation.organizationId),
    User.query(db).findById(invitation.inviterId),
  ]);
  await enqueueMail(
    ctx.services,
    db,
    invitationMail({
      to: invitation.email,
      organizationName: org?.name ?? "an organization",
      inviterName: inviter?.name || inviter?.email || "Someone",
      role: invitation.role,
      link,
      expiresAt: invitation.expiresAt,
    }),
  );
}

/** The invitation `id` when the caller sees its organization. @throws NotFoundError otherwise. */
async function visibleInvitation(ctx: Context, id: string) {
  const invitation = await Invitation.query(ctx.knex).findById(id);
  const access = invitation ? await ctx.scope.forOrg(invitation.organizationId) : null;
  if (!invitation || !access) throw new NotFoundError("Invitation", id);
  return { invitation, access };
}

function assertPending(invitation: Invitation, now: Date): void {
  const status = invitationStatus(invitation, now);
  if (status !== "pending") throw new ConflictError(`The invitation is ${status}, no longer pending`);
}

/**
 * `inviteMember`: stores a pending invitation (expires 48 hours from now) and enqueues the mail with its link in
 * the same transaction (job `mail.send`). `grants` (services only, e.g. an organization import) limit a `member` to
 * those projects and applications once they join; `limited` (services only) limits them to `grants` even when none
 * is given or left (a member whose grants' targets were all deleted sees no project).
 * @throws NotFoundError (organization, a granted project or application), ForbiddenError (members),
 * BadUserInputError (address, role, grants for another role), ConflictError (already a member, or a pending
 * invitation exists).
 */
export async function inviteMember(
  ctx: Context,
  raw: {
    organizationId?: string | null;
    email: string;
    role: Role;
    grants?: readonly PendingGrant[];
    limited?: boolean;
  },
): Promise<Invitation> {
  const access = await organizationAccess(ctx.scope, { organizationId: raw.organizationId || null });
  assertCan(access, "team:manage");
  const { grants = [], limited = false, ...fields } = raw;
  const input = parseInput(inviteInput, fields);
  if (limited && !isLimitableByGrants(input.role)) {
    throw new BadUserInputError("Only members can be limited; owners and admins see every project", {
      fieldErrors: { role: ["Not the role member"] },
    });
  }
  const pendingGrants: PendingGrant[] = [];
  for (const grant of grants) {
    const target = await checkedGrantTarget(ctx, access.organizationId, input.role, grant);
    pendingGrants.push(target.projectId ? { projectId: target.projectId } : { applicationId: target.applicationId! });
  }
  const now = ctx.services.now();
  const token = newInvitationToken();
  return ctx.knex.transaction(async (trx) => {
    // Serialise invitations of one organization so two requests cannot both invite the same address.
    await lockOrganization(trx, access.organizationId, "no key update");
    await assertNotMemberOrInvited(trx, access.organizationId, input.email, now);
    const invitation = await Invitation.query(trx)
      .insert({
        organizationId: access.organizationId,
        email: input.email,
        role: input.role,
        status: "pending",
        inviterId: ctx.caller!.userId,
        createdAt: now,
        expiresAt: new Date(now.getTime() + INVITATION_LIFETIME_MS),
        tokenHash: hashInvitationToken(token),
        tokenEncrypted: ctx.services.secrets.encrypt(token),
        pendingGrants,
        limitedToGrants: limited || pendingGrants.length > 0,
      })
      .returning("*");
    await mailInvitation(ctx, trx, invitation, invitationLink(baseUrlOf(ctx.services.config), token));
    await emitInvited(
      { knex: trx, services: ctx.services },
      { ...invitation, emails: [input.email], invitationId: invitation.id, invitedBy: ctx.caller!.userId },
    );
    return invitation;
  });
}

async function assertNotMemberOrInvited(trx: Knex.Transaction, organizationId: string, email: string, now: Date) {
  const member = await memberAmong(trx, organizationId, userIdsWithEmail(trx, email));
  if (member) {
    const message = `${email} is already a member of this organization`;
    throw new ConflictError(message, { email: [message] });
  }
  const pending = await Invitation.query(trx)
    .where({ organizationId, email, status: "pending" })
    .where("expiresAt", ">", now)
    .first();
  if (pending) {
    const message = `${email} already has a pending invitation: resend or cancel it`;
    throw new ConflictError(message, { email: [message] });
  }
}

/**
 * `resendInvitation`: mails the same link again; the expiry does not move.
 * @throws NotFoundError, ForbiddenError (members), ConflictError (not pending).
 */
export async function resendInvitation(ctx: Context, id: string): Promise<Invitation> {
  const { invitation, access } = await visibleInvitation(ctx, id);
  assertCan(access, "team:manage");
  assertPending(invitation, ctx.services.now());
  const link = linkOf(ctx, invitation);
  if (!link) throw new ConflictError("This invitation has no link to resend; cancel it and invite again");
  await mailInvitation(ctx, ctx.knex, invitation, link);
  return invitation;
}

/**
 * `cancelInvitation`: status `revoked` (stored `canceled`); the link stops working at once.
 * @throws NotFoundError, ForbiddenError (members), ConflictError (not pending).
 */
export async function cancelInvitation(ctx: Context, id: string): Promise<Invitation> {
  const { invitation, access } = await visibleInvitation(ctx, id);
  assertCan(access, "team:manage");
  assertPending(invitation, ctx.services.now());
  const query = Invitation.query(ctx.knex)
    .patch({ status: "canceled" })
    .where({ id, status: "pending" })
    .returning("*");
  const [updated] = await writeModelsWithAuditEntry(ctx, Invitation, query);
  if (!updated) throw new ConflictError("The invitation is no longer pending");
  return updated;
}

/**
 * `Invitation.link`: the link of a pending invitation (its row as the compiled read gives it) when the caller's role
 * in its organization allows `invitation:read-link` (owners and admins), else null.
 */
export async function readableLinkOf(ctx: Context, row: InvitationLinkRow): Promise<string | null> {
  if (invitationStatus(row, ctx.services.now()) !== "pending") return null;
  const access = await ctx.scope.forOrg(row.organizationId);
  return access !== null && can(access, "invitation:read-link") ? linkOf(ctx, row) : null;
}

/** Answer of `invitationLink`: details only for a valid (pending) link. */
export interface InvitationLinkInfo {
  valid: boolean;
  status: InvitationStatus | null;
  organizationName?: string;
  email?: string;
  role?: Role;
  expiresAt?: Date;
  accountExists?: boolean;
}

/**
 * The invitation of a link token, or null for an unknown (or absurdly long) token. `lock`: `for update`
 * (inside a transaction), so that concurrent acceptances of one link are serialised.
 */
export async function invitationByToken(
  ctx: Pick<ServiceContext, "knex">,
  token: string,
  options: { lock?: boolean } = {},
): Promise<Invitation | null> {
  if (token.length === 0 || token.length > 200) return null;
  const query = Invitation.query(ctx.knex).findOne({ tokenHash: hashInvitationToken(token) });
  if (options.lock) query.forUpdate();
  return (await query) ?? null;
}

/** `invitationLink` (public): what a token leads to; never an error. */
export async function describeInvitationLink(ctx: Context, token: string): Promise<InvitationLinkInfo> {
  const invitation = await invitationByToken(ctx, token);
  if (!invitation) return { valid: false, status: null };
  const status = invitationStatus(invitation, ctx.services.now());
  if (status !== "pending") return { valid: false, status };
  const [org, account] = await Promise.all([
    Organization.query(ctx.knex).findById(invitation.organizationId),
    findUserByEmail(ctx.knex, invitation.email),
  ]);
  return {
    valid: true,
    status,
    organizationName: org?.name,
    email: invitation.email,
    role: invitation.role,
    expiresAt: invitation.expiresAt,
    // An unverified account proves nothing about the mailbox (anyone may sign up with any address):
    // `signUpWithInvitation` replaces it, so the invitee is offered that, not a sign-in to someone else's account.
    accountExists: account?.verified === true,
  };
}

/** @throws BadUserInputError naming why the link of `invitation` (null: unknown token) cannot be used. */
export function assertUsableLink(invitation: Invitation | null, now: Date): asserts invitation is Invitation {
  const status = invitation ? invitationStatus(invitation, now) : null;
  if (status === "pending") return;
  const why = status === null ? "unknown" : status === "accepted" ? "already used" : status;
  throw new BadUserInputError(`This invitation link is invalid (${why})`, {
    fieldErrors: { token: [`Invalid invitation link: ${why}`] },
  });
}
