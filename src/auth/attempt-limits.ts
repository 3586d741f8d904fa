/**
 * Attempt limits on the account endpoints, always on whatever NODE_ENV: every attempt counts
 * against its account and against the client address, in PostgreSQL (`auth_attempt_limits`, rate-limiter-flexible's
 * RateLimiterPostgres), so every instance shares the counters. Over either limit the endpoint answers 429
 * `TOO_MANY_ATTEMPTS` with `Retry-After` (seconds) — even for the right password, so guessing stops at the limit.
 * The client address is the one Fastify resolves (the rightmost address that is not a trusted proxy of
 * SKIFF_TRUST_PROXY: src/http/client-address.ts), passed in the
 * `x-skiff-client-ip` header by the auth routes.
 */
import type { BetterAuthPlugin } from "@better-auth/core";
import { APIError, createAuthMiddleware } from "better-auth/api";
import type pg from "pg";
import { RateLimiterRes } from "rate-limiter-flexible";
import { postgresLimiters } from "./postgres-limiters.ts";
import { verifyingUserId } from "./totp-replay.ts";

/** One limited action: the paths it covers, attempts per account and per address within `windowSeconds`. */
interface Rule {
  name: string;
  paths: readonly string[];
  perAccount: number;
  perAddress: number;
  windowSeconds: number;
}

/** The limits (attempts per window). Sign-in: 10 per account and 100 per address in 15 minutes. */
export const ATTEMPT_RULES: readonly Rule[] = [
  { name: "sign-in", paths: ["/sign-in/email"], perAccount: 10, perAddress: 100, windowSeconds: 900 },
  { name: "sign-up", paths: ["/sign-up/email"], perAccount: 5, perAddress: 20, windowSeconds: 3600 },
  { name: "verification", paths: ["/send-verification-email"], perAccount: 5, perAddress: 20, windowSeconds: 3600 },
  {
    name: "reset",
    paths: ["/request-password-reset", "/forget-password", "/reset-password"],
    perAccount: 5,
    perAddress: 20,
    windowSeconds: 3600,
  },
  {
    name: "two-factor",
    paths: ["/two-factor/verify-totp", "/two-factor/verify-backup-code", "/two-factor/verify-otp"],
    perAccount: 10,
    perAddress: 100,
    windowSeconds: 900,
  },
];

type HookContext = Parameters<Parameters<typeof createAuthMiddleware>[0]>[0];

/** The account an attempt is about: the e-mail in the body, else (two-factor, reset by token) the user or token. */
async function accountOf(ctx: HookContext, rule: Rule): Promise<string | null> {
  const body = (ctx.body ?? {}) as Record<string, unknown>;
  if (typeof body.email === "string") return `email:${body.email.trim().toLowerCase()}`;
  if (rule.name === "two-factor") {
    const userId = await verifyingUserId(ctx).catch(() => null);
    return userId ? `user:${userId}` : null;
  }
  if (typeof body.token === "string") return `token:${body.token}`;
  return null;
}

/** The plugin; `pool` is the auth database pool. */
export function attemptLimits(pool: pg.Pool) {
  const limiterOf = postgresLimiters(pool);
  const limiter = (rule: Rule, scope: "account" | "address") =>
    limiterOf(`${rule.name}:${scope}`, scope === "account" ? rule.perAccount : rule.perAddress, rule.windowSeconds);
  const byPath = new Map(ATTEMPT_RULES.flatMap((rule) => rule.paths.map((path) => [path, rule] as const)));
  return {
    id: "skiff-attempt-limits",
    hooks: {
      before: [
        {
          matcher: (ctx) => byPath.has(ctx.path ?? ""),
          handler: createAuthMiddleware(async (ctx) => {
            const rule = byPath.get(ctx.path ?? "");
            if (!rule) return;
            const address = ctx.request?.headers.get("x-skiff-client-ip") ?? "unknown";
            const account = await accountOf(ctx, rule);
            try {
              await limiter(rule, "address").consume(address);
              if (account) await limiter(rule, "account").consume(account);
            } catch (error) {
              if (!(error instanceof RateLimiterRes)) throw error;
              const retryAfter = Math.max(1, Math.ceil(error.msBeforeNext / 1000));
              throw new APIError(
                "TOO_MANY_REQUESTS",
                { code: "TOO_MANY_ATTEMPTS", message: `Too many ${rule.name} attempts; retry in ${retryAfter} s` },
                { "retry-after": String(retryAfter) },
              );
            }
          }),
        },
      ],
    },
  } satisfies BetterAuthPlugin;
}
