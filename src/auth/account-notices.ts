/**
 * Security notices: the person is mailed when their password changes (changed while signed in, or reset through
 * the forgot-password link), when two-factor authentication is turned on or off, and when a sign-in provider is
 * linked to an account that already had a way to sign in — so that a change they did not make is noticed (spec
 * "Authentication"). Mail goes through the auth layer's {@link Mailer} (the queued `mail.send` job on a server).
 */
import type { BetterAuthPlugin } from "@better-auth/core";
import { APIError, createAuthMiddleware } from "better-auth/api";
import type { Mailer } from "./mailer.ts";

/** Paths of better-auth's two-factor endpoints that turn it on or off (they update `users.two_factor_enabled`). */
const TWO_FACTOR_PATHS = new Set(["/two-factor/enable", "/two-factor/verify-totp", "/two-factor/disable"]);

/** The notice mailed for each change: subject and body (plain text) for the account's address. */
export const NOTICES = {
  passwordChanged: {
    subject: "Your Skiff password was changed",
    text: "The password of your Skiff account was changed and your other sessions were signed out.",
  },
  passwordReset: {
    subject: "Your Skiff password was reset",
    text: "The password of your Skiff account was reset through the forgot-password link; every session was signed out.",
  },
  twoFactorOn: {
    subject: "Two-factor authentication is on for your Skiff account",
    text: "Two-factor authentication was turned on: signing in now asks for a code from your authenticator app.",
  },
  twoFactorOff: {
    subject: "Two-factor authentication is off for your Skiff account",
    text: "Two-factor authentication was turned off: signing in asks only for your password.",
  },
  providerLinked: {
    subject: "A sign-in provider was linked to your Skiff account",
    text: "You can now sign in to Skiff with",
  },
} as const;

const FOOTER = "\n\nIf this was not you, reset your password at once and review your sessions on the Account page.\n";

/**
 * The plugin. `mailer` sends each notice; a failure to hand it over is logged by better-auth's error handler, the
 * change itself stays done (it is committed before the notice is sent).
 */
export function accountNotices(mailer: Mailer) {
  const notify = (to: string, notice: { subject: string; text: string }, extra = "") =>
    mailer.send({ to, subject: notice.subject, text: `${notice.text}${extra}${FOOTER}` });
  return {
    id: "skiff-account-notices",
    init: () => ({
      options: {
        databaseHooks: {
          user: {
            update: {
              after: async (user: { email: string; twoFactorEnabled?: boolean | null }, ctx) => {
                if (!ctx?.path || !TWO_FACTOR_PATHS.has(ctx.path)) return;
                await notify(user.email, user.twoFactorEnabled ? NOTICES.twoFactorOn : NOTICES.twoFactorOff);
              },
            },
          },
          account: {
            create: {
              after: async (account: { userId: string; providerId: string }, ctx) => {
                if (!ctx || account.providerId === "credential") return;
                // A first account is a sign-up, not a link: only an account that had a way to sign in is told.
                const accounts = await ctx.context.internalAdapter.findAccounts(account.userId);
                if (accounts.length < 2) return;
                const user = await ctx.context.internalAdapter.findUserById(account.userId);
                if (user) await notify(user.email, NOTICES.providerLinked, ` ${account.providerId}.`);
              },
            },
          },
        },
      },
    }),
    hooks: {
      after: [
        {
          matcher: (ctx) => ctx.path === "/change-password",
          handler: createAuthMiddleware(async (ctx) => {
            const returned = ctx.context.returned;
            if (returned instanceof APIError) return;
            // The endpoint answers `{ token, user }`; its session is the caller's.
            const email = (returned as { user?: { email?: string } } | undefined)?.user?.email;
            const to = email ?? ctx.context.session?.user.email;
            if (to) await notify(to, NOTICES.passwordChanged);
          }),
        },
      ],
    },
  } satisfies BetterAuthPlugin;
}

/** The notice of a password reset, for `emailAndPassword.onPasswordReset`. */
export function passwordResetNotice(mailer: Mailer, email: string): Promise<void> {
  return mailer.send({
    to: email,
    subject: NOTICES.passwordReset.subject,
    text: `${NOTICES.passwordReset.text}${FOOTER}`,
  });
}
