/**
 * The better-auth instance: e-mail/password with verification, OAuth (GitHub, Google, GitLab when configured),
 * organizations (owner/admin/member, 48 h invitations), TOTP two-factor and account API keys.
 * Spec: site-import-access-agent-api.md "Authentication", "Organization and access resources".
 * Tables and columns: see `naming.ts` and the migration `20261122000100_create_auth_tables.ts`.
 */
import { apiKey } from "@better-auth/api-key";
import { betterAuth } from "better-auth";
import { organization, twoFactor } from "better-auth/plugins";
import pg from "pg";
import type { Config } from "../config.ts";
import { newId } from "../db/ids.ts";
import { apiKeyOrganization } from "./api-key-organization.ts";
import { createLogMailer, type Mailer, type MailLog } from "./mailer.ts";
import { AUTH_ID_KINDS, AUTH_TABLES, type AuthModel, snakeFields } from "./naming.ts";
import { hashPassword, verifyPassword } from "./password.ts";

/** Prefix of every generated account API key (`skiff_` + 64 letters). */
export const API_KEY_PREFIX = "skiff_";

/** Name of the session cookie (better-auth adds `__Secure-` in front when the base URL is https). */
export const SESSION_COOKIE = "skiff.session_token";

/** The pino-like logger createAuth writes to (mail by default, better-auth's own warnings and errors). */
export interface AuthLog extends MailLog {
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/** What createAuth needs besides configuration; every field is optional. */
export interface AuthDeps {
  /** Where verification and invitation mails go; default: written to `log`. */
  mailer?: Mailer;
  /** Default: console. */
  log?: AuthLog;
  /** Maximum connections of the auth pool (default 10). */
  poolMax?: number;
}

const pools = new WeakMap<object, pg.Pool>();

/** Public base URL of the server: SKIFF_BASE_URL, else http://localhost:PORT. */
export function baseUrlOf(config: Config): string {
  return (config.SKIFF_BASE_URL ?? `http://localhost:${config.PORT}`).replace(/\/+$/, "");
}

function generateId({ model }: { model: string }): string {
  const kind = AUTH_ID_KINDS[model as AuthModel];
  if (!kind) throw new Error(`No id prefix for better-auth model "${model}"`);
  return newId(kind);
}

function socialProviders(config: Config) {
  const { GITHUB_CLIENT_ID, GITHUB_CLIENT_SECRET, GOOGLE_CLIENT_ID, GOOGLE_CLIENT_SECRET } = config;
  const { GITLAB_CLIENT_ID, GITLAB_CLIENT_SECRET, GITLAB_ISSUER } = config;
  return {
    ...(GITHUB_CLIENT_ID && GITHUB_CLIENT_SECRET
      ? { github: { clientId: GITHUB_CLIENT_ID, clientSecret: GITHUB_CLIENT_SECRET } }
      : {}),
    ...(GOOGLE_CLIENT_ID && GOOGLE_CLIENT_SECRET
      ? { google: { clientId: GOOGLE_CLIENT_ID, clientSecret: GOOGLE_CLIENT_SECRET } }
      : {}),
    ...(GITLAB_CLIENT_ID && GITLAB_CLIENT_SECRET
      ? { gitlab: { clientId: GITLAB_CLIENT_ID, clientSecret: GITLAB_CLIENT_SECRET, issuer: GITLAB_ISSUER } }
      : {}),
  };
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
  const baseURL = baseUrlOf(config);
  const pool = new pg.Pool({ connectionString: databaseUrl, max: deps.poolMax ?? 10 });
  pool.on("error", (err) => log.error({ err }, "auth database pool error"));

  const auth = betterAuth({
    appName: "Skiff",
    baseURL,
    basePath: "/api/auth",
    secret,
    database: pool,
    trustedOrigins: [new URL(baseURL).origin],
    telemetry: { enabled: false },
    logger: {
      level: "warn",
      log: (level, message, ...args) => {
        if (level === "error") log.error({ args }, message);
        else if (level === "warn") log.warn({ args }, message);
      },
    },
    onAPIError: {
      // Client errors (wrong password, invalid origin…) are answered, not logged; failures are.
      onError: (err) => {
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
    },
    session: {
      modelName: AUTH_TABLES.session,
      fields: snakeFields("expiresAt", "createdAt", "updatedAt", "ipAddress", "userAgent", "userId"),
    },
    account: {
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
      minPasswordLength: 8,
      requireEmailVerification: true,
      password: { hash: hashPassword, verify: verifyPassword },
    },
    emailVerification: {
      sendOnSignUp: true,
      autoSignInAfterVerification: true,
      sendVerificationEmail: async ({ user, url }) => {
        await mailer.send({
          to: user.email,
          subject: "Verify your e-mail address for Skiff",
          text: `Open this link to verify your e-mail address:\n\n${url}\n`,
        });
      },
    },
    socialProviders: socialProviders(config),
    databaseHooks: {
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
      organization({
        creatorRole: "owner",
        invitationExpiresIn: 172_800,
        sendInvitationEmail: async ({ id, email, organization: org, inviter }) => {
          await mailer.send({
            to: email,
            subject: `${inviter.user.name || inviter.user.email} invited you to ${org.name} on Skiff`,
            text: `Open this link within 48 hours to join ${org.name}:\n\n${baseURL}/accept-invitation/${id}\n`,
          });
        },
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
        schema: {
          user: { fields: snakeFields("twoFactorEnabled") },
          twoFactor: {
            modelName: AUTH_TABLES.twoFactor,
            fields: snakeFields("backupCodes", "userId", "failedVerificationCount", "lockedUntil"),
          },
        },
      }),
      apiKey({
        defaultPrefix: API_KEY_PREFIX,
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
