/**
 * Sign-up squatting: anyone can sign up with someone else's address, and the mailbox owner
 * clicking that verification link used to make the squatter's password the account's. Now a sign-up for an
 * address held by an account that was never verified replaces it: the pending account (its password, sessions and
 * pending links) is deleted and the new sign-up proceeds — and verification links issued before the account's
 * current creation are refused, so only the latest sign-up's link (mailed to the mailbox) verifies it.
 */
import type { BetterAuthPlugin } from "@better-auth/core";
import { APIError, createAuthMiddleware } from "better-auth/api";
import { jwtVerify } from "jose";
import type pg from "pg";
import { z } from "zod";

/**
 * The plugin; `pool` is the auth database pool, `checkName` Skiff's rule for a display name (throws its refusal,
 * which is answered before anything is deleted). Only a sign-up that the rules checked before the account is written
 * would accept (origin, e-mail, password length, name) replaces a pending account: a refused one leaves it as it was.
 */
export function unverifiedSignUpReplaces(pool: pg.Pool, checkName: (name: unknown) => void) {
  return {
    id: "skiff-unverified-sign-up",
    hooks: {
      before: [
        {
          matcher: (ctx) => ctx.path === "/sign-up/email",
          handler: createAuthMiddleware(async (ctx) => {
            const { email, password, name } = (ctx.body ?? {}) as {
              email?: unknown;
              password?: unknown;
              name?: unknown;
            };
            if (typeof email !== "string" || !z.email().safeParse(email).success) return;
            const lengths = ctx.context.password.config;
            if (typeof password !== "string") return;
            if (password.length < lengths.minPasswordLength || password.length > lengths.maxPasswordLength) return;
            checkName(name);
            const origin = ctx.request?.headers.get("origin");
            if (origin && !ctx.context.skipOriginCheck && !ctx.context.isTrustedOrigin(origin)) return;
            await pool.query("delete from users where lower(email) = lower($1) and email_verified = false", [
              email.trim(),
            ]);
          }),
        },
        {
          matcher: (ctx) => ctx.path === "/verify-email",
          handler: createAuthMiddleware(async (ctx) => {
            const token = (ctx.query as { token?: unknown } | undefined)?.token;
            if (typeof token !== "string") return;
            let claims: { email?: unknown; iat?: unknown };
            try {
              ({ payload: claims } = await jwtVerify(token, new TextEncoder().encode(ctx.context.secret), {
                algorithms: ["HS256"],
              }));
            } catch {
              return; // better-auth answers the invalid or expired token itself
            }
            if (typeof claims.email !== "string" || typeof claims.iat !== "number") return;
            const { rows } = await pool.query<{ created_at: Date }>(
              "select created_at from users where lower(email) = lower($1) and email_verified = false",
              [claims.email],
            );
            // One second of slack: `iat` has whole-second precision.
            if (rows[0] && claims.iat * 1000 < rows[0].created_at.getTime() - 1000) {
              throw APIError.from("UNAUTHORIZED", {
                code: "INVALID_TOKEN",
                message: "This verification link belongs to an earlier sign-up: use the latest mail",
              });
            }
          }),
        },
      ],
    },
  } satisfies BetterAuthPlugin;
}
