/**
 * Accepting an invitation (spec: "Sign-in and accounts" — an invitation link accepts only the e-mail address it
 * was sent to: an existing account signs in and returns to accept; a new account is created on the invitation
 * page with the e-mail locked and verified; a user signed in under another e-mail must sign out first).
 * Both paths lock the invitation row, so a link is used at most once.
 */
import type { Knex } from "knex";
import { z } from "zod";
import { assertSignedIn } from "../../auth/access/policy.ts";
import { hashPassword, MIN_PASSWORD_LENGTH } from "../../auth/password.ts";
import { newId } from "../../db/ids.ts";
import { missingReference } from "../../db/pg-errors.ts";
import { uniqueViolation } from "../../shared/constraint-errors.ts";
import { AppError, ConflictError } from "../../shared/errors.ts";
import { nameText } from "../../shared/input-fields.ts";
import { parseInput } from "../../shared/validate.ts";
import { Member, MemberGrant } from "../access/index.ts";
import { noteAuditOrganization, noteAuditTarget } from "../audit/index.ts";
import type { Context } from "../context.ts";
import { deleteUser, findUserByEmail, setActiveOrganization, User } from "../organizations/index.ts";
import { emitAccountEvent } from "./account-events.ts";
import { Invitation } from "./invitation.model.ts";
import { assertUsableLink, invitationByToken } from "./invitation.service.ts";

/** Longest password accepted (better-auth's default maximum). */
export const MAX_PASSWORD_LENGTH = 128;

/** `extensions.reason` of the error answered to someone signed in under another address. */
export const SIGNED_IN_AS_ANOTHER_USER = "SIGNED_IN_AS_ANOTHER_USER";

/** `extensions.reason` of the error answered to an account whose address is not verified. */
export const EMAIL_NOT_VERIFIED = "EMAIL_NOT_VERIFIED";

const signUpInput = z.object({
  token: z.string(),
  name: nameText(100),
  password: z
    .string()
    .min(MIN_PASSWORD_LENGTH, `At least ${MIN_PASSWORD_LENGTH} characters`)
    .max(MAX_PASSWORD_LENGTH, `At most ${MAX_PASSWORD_LENGTH} characters`),
});

/** FORBIDDEN with reason {@link SIGNED_IN_AS_ANOTHER_USER}: tells the visitor to sign out first. */
function signedInAsAnother(invited: string, current: string): AppError {
  return new AppError(
    "FORBIDDEN",
    `This invitation is for ${invited}, but you are signed in as ${current}. Sign out first, then open the link again.`,
    { reason: SIGNED_IN_AS_ANOTHER_USER },
  );
}

/** The pending invitation of `token`, locked for this transaction. @throws BadUserInputError when invalid. */
async function lockUsable(trx: Knex.Transaction, token: string, now: Date): Promise<Invitation> {
  const invitation = await invitationByToken({ knex: trx }, token, { lock: true });
  assertUsableLink(invitation, now);
  return invitation;
}

/**
 * Adds the membership with the invitation's grants and marks the invitation accepted. A grant whose project or
 * application was deleted since the invitation is not given (its insert, in a savepoint, finds no row to reference),
 * nor one given twice; a member invited with grants, or invited limited, is limited to them even when none is left
 * (`members.limited_to_grants`).
 * @throws ConflictError when already a member.
 */
async function join(trx: Knex.Transaction, invitation: Invitation, userId: string): Promise<Member> {
  const existing = await Member.query(trx).findOne({ organizationId: invitation.organizationId, userId });
  if (existing) throw new ConflictError("You are already a member of this organization");
  const pendingGrants = invitation.pendingGrants ?? [];
  const member = await Member.query(trx)
    .insert({
      organizationId: invitation.organizationId,
      userId,
      role: invitation.role,
      limitedToGrants: invitation.limitedToGrants || pendingGrants.length > 0,
    })
    .returning("*");
  for (const grant of pendingGrants) {
    try {
      await trx.transaction(async (savepoint) => {
        await MemberGrant.query(savepoint).insert({
          memberId: member.id,
          projectId: grant.projectId ?? null,
          applicationId: grant.applicationId ?? null,
        });
      });
    } catch (error) {
      if (!missingReference(error) && uniqueViolation(error) === null) throw error;
    }
  }
  await Invitation.query(trx).patch({ status: "accepted" }).where({ id: invitation.id });
  return member;
}

/**
 * `acceptInvitation`: the signed-in user (session) joins with the invited role; the session then acts on the
 * joined organization.
 * @throws ForbiddenError (API key; signed in under another address, reason SIGNED_IN_AS_ANOTHER_USER; address not
 * verified, reason EMAIL_NOT_VERIFIED),
 * BadUserInputError (invalid link), ConflictError (already a member).
 */
export async function acceptInvitation(ctx: Context, token: string): Promise<Member> {
  const caller = ctx.caller!;
  assertSignedIn(caller, "invitation:accept");
  const user = await User.query(ctx.knex).findById(caller.userId);
  const now = ctx.services.now();
  const member = await ctx.knex.transaction(async (trx) => {
    const invitation = await lockUsable(trx, token, now);
    const email = (user?.email ?? "").toLowerCase();
    if (invitation.email !== email) throw signedInAsAnother(invitation.email, email);
    // An OAuth provider may vouch for an address without verifying it; such an account cannot claim invitations.
    if (!user?.emailVerified) {
      throw new AppError("FORBIDDEN", `Verify ${email} first, then open the link again`, {
        reason: EMAIL_NOT_VERIFIED,
      });
    }
    noteAuditOrganization(ctx, invitation.organizationId); // the joined organization's log holds the entry
    return join(trx, invitation, caller.userId);
  });
  if (caller.sessionId) {
    await setActiveOrganization(ctx.knex, caller.sessionId, member.organizationId);
    caller.organizationId = member.organizationId;
  }
  ctx.scope.invalidate();
  return member;
}

/**
 * `signUpWithInvitation` (no credentials needed): creates the account with the invited address, verified, with
 * an argon2id password (e-mail/password sign-in, better-auth's `credential` account), and joins.
 * @throws BadUserInputError (invalid link, name or password), ConflictError (an account with that address
 * exists), ForbiddenError (called while signed in under another address, reason SIGNED_IN_AS_ANOTHER_USER).
 */
export async function signUpWithInvitation(
  ctx: Context,
  raw: { token: string; name: string; password: string },
): Promise<User> {
  const input = parseInput(signUpInput, raw);
  const now = ctx.services.now();
  const passwordHash = await hashPassword(input.password);
  const current = ctx.caller ? await User.query(ctx.knex).findById(ctx.caller.userId) : undefined;
  return ctx.knex.transaction(async (trx) => {
    const invitation = await lockUsable(trx, input.token, now);
    if (current && current.email.toLowerCase() !== invitation.email) {
      throw signedInAsAnother(invitation.email, current.email.toLowerCase());
    }
    const existing = await findUserByEmail(trx, invitation.email);
    // An unverified account proves nothing about the mailbox (anyone can sign up with any address), while this
    // invitation link was mailed there: the pending account gives way.
    if (existing && existing.verified === false) await deleteUser(trx, existing.id);
    else if (existing) {
      throw new ConflictError(`An account for ${invitation.email} exists: sign in, then accept the invitation`);
    }
    const user = await User.query(trx)
      .insert({ email: invitation.email, name: input.name, emailVerified: true })
      .returning("*");
    await trx("accounts").insert({
      id: newId("account"),
      user_id: user.id,
      provider_id: "credential",
      account_id: user.id,
      password: passwordHash,
    });
    const member = await join(trx, invitation, user.id);
    // The joined organization's log holds the entry, naming the invitation and the membership.
    noteAuditOrganization(ctx, invitation.organizationId);
    noteAuditTarget(ctx, invitation.id);
    noteAuditTarget(ctx, member.id);
    // A new account joining by the link: signed up, and its address verified by the link.
    await emitAccountEvent({ knex: trx, services: ctx.services }, "user_signed_up", user.id);
    await emitAccountEvent({ knex: trx, services: ctx.services }, "user_email_verified", user.id);
    return user;
  });
}
