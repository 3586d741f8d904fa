/**
 * One use per TOTP code (RFC 6238 §5.2; spec "Sign-in and accounts": optional TOTP two-factor).
 * better-auth 1.7.5 accepts the codes of the current 30-second step and the steps just before and after
 * (window ±1) but never remembers which step was used, so a code seen over someone's shoulder could be replayed
 * for up to a minute. This companion plugin runs before `/two-factor/verify-totp`: it finds which step of the
 * window the code belongs to and claims it atomically in `two_factors.last_totp_step`; a code whose step is not
 * later than the last accepted one is answered exactly like a wrong code (401 `INVALID_CODE`).
 * Codes that match no step are left to better-auth, which rejects them and counts the failure.
 */
import type { BetterAuthPlugin } from "@better-auth/core";
import { createOTP } from "@better-auth/utils/otp";
import { APIError, createAuthMiddleware, getSessionFromCtx } from "better-auth/api";
import { symmetricDecrypt } from "better-auth/crypto";
import type pg from "pg";

/** Length of a TOTP step in seconds (better-auth's default, also used by authenticator apps). */
export const TOTP_PERIOD_SECONDS = 30;

/** Steps accepted on either side of the current one (better-auth's fixed verification window). */
export const TOTP_WINDOW = 1;

const VERIFY_PATH = "/two-factor/verify-totp";

/** better-auth's answer to a wrong code, reused so that a replay cannot be told apart from a typo. */
const INVALID_CODE = { code: "INVALID_CODE", message: "Invalid code" };

/**
 * The TOTP step (seconds since the epoch / 30, floored) within ±{@link TOTP_WINDOW} of `nowMs` whose code is
 * `code`, or null when none matches.
 */
export async function matchingTotpStep(secret: string, code: string, nowMs: number): Promise<number | null> {
  const otp = createOTP(secret, { period: TOTP_PERIOD_SECONDS });
  const current = Math.floor(nowMs / 1000 / TOTP_PERIOD_SECONDS);
  for (let step = current - TOTP_WINDOW; step <= current + TOTP_WINDOW; step++) {
    if ((await otp.hotp(step)) === code) return step;
  }
  return null;
}

type HookContext = Parameters<Parameters<typeof createAuthMiddleware>[0]>[0];

/** The user verifying a code: the signed-in user (enabling 2FA), or the one of the pending two-factor sign-in. */
export async function verifyingUserId(ctx: HookContext): Promise<string | null> {
  const session = await getSessionFromCtx(ctx);
  if (session) return session.user.id;
  const cookie = ctx.context.createAuthCookie("two_factor");
  const identifier = await ctx.getSignedCookie(cookie.name, ctx.context.secret);
  if (!identifier) return null;
  const verification = await ctx.context.internalAdapter.findVerificationValue(identifier);
  return verification?.value ?? null;
}

/** The plugin; list it after `twoFactor(...)`. `pool` is the auth database pool (table `two_factors`). */
export function totpReplayGuard(pool: pg.Pool) {
  return {
    id: "skiff-totp-replay-guard",
    hooks: {
      before: [
        {
          matcher: (ctx) => ctx.path === VERIFY_PATH,
          handler: createAuthMiddleware(async (ctx) => {
            const code = (ctx.body as { code?: unknown } | undefined)?.code;
            if (typeof code !== "string") return;
            const userId = await verifyingUserId(ctx);
            if (!userId) return;
            const { rows } = await pool.query<{ secret: string }>("select secret from two_factors where user_id = $1", [
              userId,
            ]);
            if (!rows[0]) return;
            const secret = await symmetricDecrypt({ key: ctx.context.secretConfig, data: rows[0].secret });
            const step = await matchingTotpStep(secret, code, Date.now());
            if (step === null) return;
            const claimed = await pool.query(
              `update two_factors set last_totp_step = $2
                where user_id = $1 and (last_totp_step is null or last_totp_step < $2)`,
              [userId, step],
            );
            if (claimed.rowCount === 0) throw APIError.from("UNAUTHORIZED", INVALID_CODE);
          }),
        },
      ],
    },
  } satisfies BetterAuthPlugin;
}
