/**
 * The better-auth instance: e-mail/password with verification, OAuth (GitHub, Google, GitLab when configured,
 * see `oauth-providers.ts`), organizations (tables and the session's active organization), TOTP two-factor with
 * one-time recovery codes (each TOTP code accepted once, see `totp-replay.ts`) and account API keys. A person's name
 * is stored as the rule of every name people read makes it, on every path (`person-name.ts`).
 * Spec: site-import-access-agent-api.md "Authentication", "Organization and access resources".
 * Tables and columns: see `naming.ts` and the migration `20261122000100_create_auth_tables.ts`.
 *
 * Organization, member, invitation and API-key management follow the spec's rules (owner cannot be removed,
 * resend keeps the link and expiry, admins may delete any key of their organization...), which differ from
 * better-auth's; they live once in our services behind GraphQL (src/modules/organizations, team, api-keys).
 * better-auth's HTTP endpoints for the same actions are therefore switched off ({@link DISABLED_AUTH_PATHS}).
 */
import { apiKey } from "@better-auth/api-key";
import { kyselyAdapter } from "@better-auth/kysely-adapter";
import { type BetterAuthOptions, betterAuth } from "better-auth";
import { APIError } from "better-auth/api";
import { genericOAuth, jwt, organization, twoFactor } from "better-auth/plugins";
import { Kysely, PostgresDialect } from "kysely";
import pg from "pg";
import type { Config } from "../config.ts";
import { newId } from "../db/ids.ts";
import { isDataException } from "../db/pg-errors.ts";
import { poolClientFor } from "../db/prepared-statements.ts";
import { DATABASE_UNAVAILABLE_MESSAGE, isDatabaseUnavailable } from "../shared/database-unavailable.ts";
import { accountNotices, passwordResetNotice } from "./account-notices.ts";
import { apiKeyOrganization } from "./api-key-organization.ts";
import { attemptLimits } from "./attempt-limits.ts";
import { createLogMailer, type Mailer, type MailLog } from "./mailer.ts";
import { AUTH_ID_KINDS, AUTH_TABLES, type AuthModel, snakeFields } from "./naming.ts";
import { builtInProviders, openIdProviders } from "./oauth-providers.ts";
import { hashPassword, MIN_PASSWORD_LENGTH, verifyPassword } from "./password.ts";
import { revokeSessionsOnPasswordChange } from "./password-change.ts";
import { personName, personNames } from "./person-name.ts";
import { sharedRequestLimits } from "./request-limits.ts";
import { hashingSessionTokens, sessionRevocationByHash } from "./session-token-hashing.ts";
import { TOTP_PERIOD_SECONDS, totpReplayGuard } from "./totp-replay.ts";
import { unverifiedSignUpReplaces } from "./unverified-sign-up.ts";

/** Prefix of every generated account API key (`skiff_` + 64 letters). */
export const API_KEY_PREFIX = "skiff_";

/** How long a forgot-password link works (seconds). */
export const RESET_PASSWORD_LINK_SECONDS = 3600;

/** Name of the session cookie (better-auth adds `__Secure-` in front when the base URL is https). */
export const SESSION_COOKIE = "skiff.session_token";

/** How many leading characters of a key are stored in `api_keys.start` to recognise it (`skiff_` + 4). */
export const API_KEY_START_LENGTH = 10;

/** Length bounds of an API key's name (characters). */
export const API_KEY_NAME_LENGTH = { min: 1, max: 64 } as const;

/**
 * better-auth HTTP paths (under /api/auth) answered 404 because Skiff implements the action itself, once, with
 * the spec's rules (GraphQL mutations of the organizations, team and api-keys modules). Server-side `auth.api`
 * calls are unaffected (GraphQL `createApiKey` runs the api-key plugin server-side). Kept: sign-up, sign-in,
 * sign-out, sessions, e-mail verification, OAuth and two-factor.
 */
export const DISABLED_AUTH_PATHS = [
  "/organization/set-active",
  "/organization/list",
  "/api-key/create",
  "/organization/create",
  "/organization/update",
  "/organization/delete",
  "/organization/leave",
  "/organization/check-slug",
  "/organization/get-full-organization",
  "/organization/get-organization",
  "/organization/get-active-member",
  "/organization/get-active-member-role",
  "/organization/has-permission",
  "/organization/invite-member",
  "/organization/cancel-invitation",
  "/organization/accept-invitation",
  "/organization/reject-invitation",
  "/organization/get-invitation",
  "/organization/list-invitations",
  "/organization/list-user-invitations",
  "/organization/add-member",
  "/organization/remove-member",
  "/organization/update-member-role",
  "/organization/list-members",
  "/api-key/get",
  "/api-key/list",
  "/api-key/update",
  "/api-key/delete",
  // The authenticator key is shown once, by `/two-factor/enable`: reading it again later would let anyone holding a
  // session and the password copy the second factor.
  "/two-factor/get-totp-uri",
];

/** The pino-like logger createAuth writes to (mail by default, better-auth's own warnings and errors). */
export interface AuthLog extends MailLog {
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/**
 * better-auth's error-level messages that only a client's bad input causes: a forged, replayed or
 * malformed OAuth callback (no or unknown `state`, a query that does not parse, a foreign `iss`), a request from an
 * untrusted origin or with a foreign callback/redirect URL. They are logged as warnings, not errors.
 */
const CLIENT_CAUSED_MESSAGES = [
  /^State not found$/,
  /^INVALID_CALLBACK_REQUEST$/,
  /^OAuth issuer mismatch$/,
  /^Invalid origin: /,
  /^Invalid (callbackURL|redirectURL|errorCallbackURL|newUserCallbackURL|redirect URL)\b/,
];

/**
 * Whether an error-level message of better-auth is a client's mistake (see {@link CLIENT_CAUSED_MESSAGES}); "Failed to
 * parse state" is one when better-auth's own `StateError` (code `state_*`) says so, or when PostgreSQL refused the
 * client's `state` value itself (a data exception, e.g. a NUL byte or invalid UTF-8), not when storage failed.
 */
export function isClientCausedAuthError(message: string, args: unknown[]): boolean {
  if (CLIENT_CAUSED_MESSAGES.some((pattern) => pattern.test(message))) return true;
  if (message !== "Failed to parse state") return false;
  if (isDataException(args[0])) return true;
  const code = (args[0] as { code?: unknown } | undefined)?.code;
  return typeof code === "string" && code.startsWith("state_") && code !== "state_generation_error";
}

/** What createAuth needs besides configuration; every field is optional. */
export interface AuthDeps {
  /** Where verification and invitation mails go; default: written to `log`. */
  mailer?: Mailer;
  /** Default: console. */
  log?: AuthLog;
  /** Maximum connections of the auth pool (default: `config.SKIFF_AUTH_POOL_MAX`, else 10). */
  poolMax?: number;
  /**
   * Told after better-auth created a user (`user_signed_up`) or verified an address (`user_email_verified`),
   * once its own writes are done (webhook events). A failure is logged, never thrown into the sign-in flow.
   */
  onAccountEvent?: (event: "user_signed_up" | "user_email_verified", userId: string) => Promise<void>;
}

const pools = new WeakMap<object, pg.Pool>();

/** Public base URL of the server: SKIFF_BASE_URL, else http://localhost:PORT. */
export function baseUrlOf(config: Config): string {
  return (config.SKIFF_BASE_URL ?? `http://localhost:${config.PORT}`).replace(/\/+$/, "");
}

/**
 * The origins whose pages may use a session cookie (sign-in, cookie-authenticated requests and WebSockets): the base
 * URL's and SKIFF_TRUSTED_ORIGINS; when the base URL is `http://localhost:<PORT>` (SKIFF_BASE_URL unset), also
 * the other loopback names of that port, `http://127.0.0.1:<PORT>` (the address the first start prints) and
 * `http://[::1]:<PORT>`: the same server's own pages.
 */
export function trustedOriginsOf(config: Config): string[] {
  const own = new URL(baseUrlOf(config)).origin;
  const origins = new Set([own, ...config.SKIFF_TRUSTED_ORIGINS]);
  // Start-up fills SKIFF_BASE_URL in with the local default, so the default is recognised by its value.
  if (own === `http://localhost:${config.PORT}`) {
    for (const host of ["127.0.0.1", "[::1]"]) origins.add(`http://${host}:${config.PORT}`);
  }
  return [...origins];
}

function generateId({ model }: { model: string }): string {
  const kind = AUTH_ID_KINDS[model as AuthModel];
  if (!kind) throw new Error(`No id prefix for better-auth model "${model}"`);
  return newId(kind);
}

/**
 * Builds the better-auth instance on its own `pg` pool to `databaseUrl` (tables must already be migrated).
 * Routes live under `/api/auth` (mount with `registerAuthRoutes`); call {@link closeAuth} to release the pool.
 * @throws Error when `config.SKIFF_SECRET` is unset (start-up fills it in).
 */
export function createAuth(config: Config, databaseUrl: string, deps: AuthDeps = {}) {
  const secret = config.SKIFF_SECRET;
  if (!secret) throw new Error("SKIFF_SECRET is required to create the auth instance");
  const log: AuthLog = deps.log ?? {
    info: (obj, msg) => console.info(msg, obj),
    warn: (obj, msg) => console.warn(msg, obj),
    error: (obj, msg) => console.error(msg, obj),
  };
  const mailer = deps.mailer ?? createLogMailer(log);
  const accountEvent = async (event: "user_signed_up" | "user_email_verified", userId: string) => {
    try {
      await deps.onAccountEvent?.(event, userId);
    } catch (err) {
      log.error({ err, event, userId }, "account event could not be emitted");
    }
  };
  const baseURL = baseUrlOf(config);
  // The limiters name their statements; behind a transaction-mode pooler those names are dropped.
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: deps.poolMax ?? config.SKIFF_AUTH_POOL_MAX ?? 10,
    Client: poolClientFor(config),
  });
  pool.on("error", (err) => log.error({ err }, "auth database pool error"));

  const auth = betterAuth({
    appName: "Skiff",
    baseURL,
    basePath: "/api/auth",
    secret,
    // better-auth's own Kysely adapter on the pool (what `database: pool` builds), storing session tokens hashed.
    database: (options: BetterAuthOptions) =>
      hashingSessionTokens(
        kyselyAdapter(new Kysely({ dialect: new PostgresDialect({ pool }) }), { type: "postgres", transaction: true })(
          options,
        ),
      ),
    trustedOrigins: trustedOriginsOf(config),
    // better-auth's own request limiter (on under NODE_ENV=production) counts in PostgreSQL, shared by every
    // instance, not in each process's memory (request-limits.ts).
    rateLimit: { customStorage: sharedRequestLimits(pool) },
    disabledPaths: DISABLED_AUTH_PATHS,
    telemetry: { enabled: false },
    logger: {
      level: "warn",
      log: (level, message, ...args) => {
        if (level === "error" && !isClientCausedAuthError(message, args)) log.error({ args }, message);
        else if (level === "error") log.warn({ args }, message);
        else if (level === "warn") log.warn({ args }, message);
      },
    },
    onAPIError: {
      // Client errors (wrong password, invalid origin…) are answered, not logged; failures are.
      // A value PostgreSQL refuses (too long, NUL byte, bad encoding) is the client's input: 400, logged as a warning
      // (an APIError thrown here becomes the response).
      onError: (err) => {
        if (isDataException(err)) {
          log.warn({ err }, "auth request refused: a value cannot be stored");
          throw new APIError("BAD_REQUEST", {
            message: "A value is too long or contains characters that cannot be stored",
            code: "INVALID_INPUT_VALUE",
          });
        }
        // The database unreachable: the client may try again (503; auth-routes.ts adds Retry-After), not a fault.
        if (isDatabaseUnavailable(err)) {
          log.warn({ err }, "auth request refused: the database is unavailable");
          throw new APIError("SERVICE_UNAVAILABLE", {
            message: DATABASE_UNAVAILABLE_MESSAGE,
            code: "SERVICE_UNAVAILABLE",
          });
        }
        const status = (err as { statusCode?: number } | null)?.statusCode;
        if (status === undefined || status >= 500) log.error({ err }, "auth request failed");
      },
    },
    advanced: {
      cookiePrefix: "skiff",
      // Set by registerAuthRoutes from Fastify's request.ip; a client-sent value is overwritten there.
      ipAddress: { ipAddressHeaders: ["x-skiff-client-ip"] },
      database: { generateId },
    },
    user: {
      modelName: AUTH_TABLES.user,
      fields: snakeFields("emailVerified", "createdAt", "updatedAt"),
      // `POST /change-email {newEmail}` mails a verification link to the new address; the address changes only
      // when that link is opened.
      changeEmail: { enabled: true },
    },
    session: {
      modelName: AUTH_TABLES.session,
      fields: snakeFields("expiresAt", "createdAt", "updatedAt", "ipAddress", "userAgent", "userId"),
    },
    account: {
      // Linking a provider (`/link-social`, `/oauth2/link`) needs the provider's address to be the account's;
      // `/unlink-account` refuses to remove the last way to sign in (better-auth's rule, `allowUnlinkingAll` off).
      accountLinking: { enabled: true, allowUnlinkingAll: false },
      modelName: AUTH_TABLES.account,
      fields: snakeFields(
        "accountId",
        "providerId",
        "userId",
        "accessToken",
        "refreshToken",
        "idToken",
        "accessTokenExpiresAt",
        "refreshTokenExpiresAt",
        "createdAt",
        "updatedAt",
      ),
    },
    verification: {
      modelName: AUTH_TABLES.verification,
      fields: snakeFields("expiresAt", "createdAt", "updatedAt"),
    },
    emailAndPassword: {
      enabled: true,
      minPasswordLength: MIN_PASSWORD_LENGTH,
      requireEmailVerification: true,
      revokeSessionsOnPasswordReset: true,
      password: { hash: hashPassword, verify: verifyPassword },
      // Forgot password: the link (`/api/auth/reset-password/<token>`, valid an hour) leads to the dashboard's
      // `/reset-password` page, which sets the new password; every session of the account then ends.
      resetPasswordTokenExpiresIn: RESET_PASSWORD_LINK_SECONDS,
      sendResetPassword: async ({ user, url }) => {
        await mailer.send({
          to: user.email,
          subject: "Reset your Skiff password",
          text: `Open this link within an hour to choose a new password:\n\n${url}\n\nIf you did not ask for it, ignore this mail: your password stays as it is.\n`,
        });
      },
      onPasswordReset: ({ user }) => passwordResetNotice(mailer, user.email),
    },
    emailVerification: {
      sendOnSignUp: true,
      autoSignInAfterVerification: true,
      afterEmailVerification: (user) => accountEvent("user_email_verified", user.id),
      sendVerificationEmail: async ({ user, url }) => {
        await mailer.send({
          to: user.email,
          subject: "Verify your e-mail address for Skiff",
          text: `Open this link to verify your e-mail address:\n\n${url}\n`,
        });
      },
    },
    socialProviders: builtInProviders(config),
    databaseHooks: {
      user: {
        // The name is stored as the person-name rule makes it (person-name.ts, whose hooks run first).
        create: { after: (user) => accountEvent("user_signed_up", user.id) },
      },
      session: {
        create: {
          // A new session starts in the user's first organization, so "active organization" is always set
          // for members (API keys are bound to it; spec "Authentication", rule 2).
          before: async (session, ctx) => {
            if (!ctx || session.activeOrganizationId) return;
            const [first] = await ctx.context.adapter.findMany<{ organizationId: string }>({
              model: "member",
              where: [{ field: "userId", value: session.userId }],
              sortBy: { field: "createdAt", direction: "asc" },
              limit: 1,
            });
            if (first) return { data: { ...session, activeOrganizationId: first.organizationId } };
          },
        },
      },
    },
    plugins: [
      // Tables and `session.activeOrganizationId` only: invitations and members are managed by our services.
      organization({
        creatorRole: "owner",
        invitationExpiresIn: 172_800,
        schema: {
          session: { fields: snakeFields("activeOrganizationId") },
          organization: { modelName: AUTH_TABLES.organization, fields: snakeFields("createdAt") },
          member: {
            modelName: AUTH_TABLES.member,
            fields: snakeFields("organizationId", "userId", "createdAt"),
          },
          invitation: {
            modelName: AUTH_TABLES.invitation,
            fields: snakeFields("organizationId", "expiresAt", "createdAt", "inviterId"),
          },
        },
      }),
      twoFactor({
        issuer: "Skiff",
        totpOptions: { period: TOTP_PERIOD_SECONDS },
        backupCodeOptions: { amount: 10, storeBackupCodes: "encrypted" },
        schema: {
          user: { fields: snakeFields("twoFactorEnabled") },
          twoFactor: {
            modelName: AUTH_TABLES.twoFactor,
            fields: snakeFields("backupCodes", "userId", "failedVerificationCount", "lockedUntil"),
          },
        },
      }),
      totpReplayGuard(pool),
      attemptLimits(pool),
      revokeSessionsOnPasswordChange(),
      sessionRevocationByHash(pool),
      personNames(),
      unverifiedSignUpReplaces(pool, personName),
      ...(openIdProviders(config).length ? [genericOAuth({ config: openIdProviders(config) })] : []),
      // Short-lived user JWTs (`GET /api/auth/token` for a session; keys at `/api/auth/jwks`), accepted as
      // `Authorization: Bearer <JWT>` by the management APIs (webhooks), see src/auth/credentials/jwt.ts.
      jwt({
        jwt: { expirationTime: "15m" },
        schema: {
          jwks: {
            modelName: AUTH_TABLES.jwks,
            fields: snakeFields("publicKey", "privateKey", "createdAt", "expiresAt"),
          },
        },
      }),
      apiKey({
        defaultPrefix: API_KEY_PREFIX,
        requireName: true,
        minimumNameLength: API_KEY_NAME_LENGTH.min,
        maximumNameLength: API_KEY_NAME_LENGTH.max,
        startingCharactersConfig: { shouldStore: true, charactersLength: API_KEY_START_LENGTH },
        rateLimit: { enabled: false },
        schema: {
          apikey: {
            modelName: AUTH_TABLES.apikey,
            fields: snakeFields(
              "configId",
              "referenceId",
              "refillInterval",
              "refillAmount",
              "lastRefillAt",
              "rateLimitEnabled",
              "rateLimitTimeWindow",
              "rateLimitMax",
              "requestCount",
              "lastRequest",
              "expiresAt",
              "createdAt",
              "updatedAt",
            ),
          },
        },
      }),
      apiKeyOrganization(),
      accountNotices(mailer),
    ],
  });
  pools.set(auth, pool);
  return auth;
}

/** The better-auth instance built by {@link createAuth}, with its typed `auth.api` endpoints. */
export type Auth = ReturnType<typeof createAuth>;

/** Closes the database pool of `auth` (tests and shutdown). */
export async function closeAuth(auth: Auth): Promise<void> {
  const pool = pools.get(auth);
  pools.delete(auth);
  await pool?.end();
}
