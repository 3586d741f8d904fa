/**
 * Changing the password ends the account's other sessions: better-auth revokes them only when
 * the client asks (`revokeOtherSessions: true`); this plugin sets the flag on every `/change-password` call, so a
 * session stolen before the change stops working. (Password resets revoke every session through
 * `emailAndPassword.revokeSessionsOnPasswordReset`.)
 */
import type { BetterAuthPlugin } from "@better-auth/core";
import { createAuthMiddleware } from "better-auth/api";

/** The plugin. */
export function revokeSessionsOnPasswordChange() {
  return {
    id: "skiff-password-change",
    hooks: {
      before: [
        {
          matcher: (ctx) => ctx.path === "/change-password",
          handler: createAuthMiddleware(async (ctx) => ({
            context: { body: { ...((ctx.body ?? {}) as Record<string, unknown>), revokeOtherSessions: true } },
          })),
        },
      ],
    },
  } satisfies BetterAuthPlugin;
}
