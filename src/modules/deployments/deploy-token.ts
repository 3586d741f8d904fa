/**
 * Deploy trigger tokens and push webhook secrets of applications (spec "Deploy
 * trigger": auto-deploy on push). A token is 32 random bytes (256 bits) in base64url (43 characters, URL-safe); it is
 * stored encrypted (to show the URL again to owners and admins) and as its SHA-256 hex digest (to find the application
 * of a request in one indexed look-up). Regenerating replaces both: the previous URL answers 404 at once.
 */
import { createHash, randomBytes } from "node:crypto";
import type { Knex } from "knex";
import { z } from "zod";
import { can } from "../../auth/access/policy.ts";
import { NotFoundError } from "../../shared/errors.ts";
import { parseInput } from "../../shared/validate.ts";
import type { WriteRunner } from "../../shared/write-runner.ts";
import { organizationAccess } from "../access/index.ts";
import {
  type DeploySettingsRow,
  deploySettingsOf,
  deployTokenOf,
  healthPathSchema,
  setDeploySettings,
  setWebhookSecret,
  storeDeployToken,
} from "../applications/index.ts";
import { auditedWriteRunner } from "../audit/index.ts";
import type { Context } from "../context.ts";
import type { AppServices } from "../services.ts";

/** A new deploy token: 256 random bits, base64url. */
export function newDeployToken(): string {
  return randomBytes(32).toString("base64url");
}

/** The look-up digest of a token (SHA-256, lowercase hex). */
export function deployTokenHash(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** `{base_url}/api/deploy/<token>`; the base is SKIFF_BASE_URL, else `http://localhost:<PORT>`. */
export function deployUrl(services: AppServices, token: string): string {
  const base = services.config.SKIFF_BASE_URL ?? `http://localhost:${services.config.PORT}`;
  return `${base.replace(/\/+$/, "")}/api/deploy/${token}`;
}

/**
 * Stores a fresh token on application `applicationId` (the statement run by `run`). @returns the token, or null when
 * none was stored.
 */
async function storeNewToken(
  knex: Knex,
  services: AppServices,
  applicationId: string,
  onlyIfMissing: boolean,
  run?: WriteRunner,
) {
  const token = newDeployToken();
  const stored = await storeDeployToken(
    knex,
    applicationId,
    { hash: deployTokenHash(token), encrypted: services.secrets.encrypt(token) },
    onlyIfMissing,
    run,
  );
  return stored ? token : null;
}

/** The application `applicationId` visible to the caller, and the caller's right to manage it. */
async function manageableApplication(ctx: Context, applicationId: string) {
  const app = await ctx.loaders.applications.byId.load(applicationId);
  if (!app) throw new NotFoundError("Application", applicationId);
  await organizationAccess(ctx.scope, { organizationId: app.organizationId, action: "application:manage" });
  return app;
}

/**
 * `Application.deployWebhookUrl` of the visible application row `app` (from the compiled read): the full deploy URL
 * for owners and admins (the token created on first read), null for other roles. No statement when it exists.
 */
export async function deployWebhookUrl(
  ctx: Context,
  app: { id: string; organizationId: string; deployTokenEncrypted?: string | null },
): Promise<string | null> {
  const applicationId = app.id;
  const access = await ctx.scope.forOrg(app.organizationId);
  if (!access || !can(access, "application:manage")) return null;
  if (app.deployTokenEncrypted) return deployUrl(ctx.services, ctx.services.secrets.decrypt(app.deployTokenEncrypted));
  await storeNewToken(ctx.knex, ctx.services, applicationId, true);
  const again = await deployTokenOf(ctx.knex, applicationId);
  return deployUrl(ctx.services, ctx.services.secrets.decrypt(again!));
}

/**
 * `regenerateDeployToken`: a new token replaces the old one (owners and admins). @returns the new URL.
 * @throws NotFoundError when not visible; ForbiddenError for members.
 */
export async function regenerateDeployToken(ctx: Context, applicationId: string): Promise<string> {
  await manageableApplication(ctx, applicationId);
  const token = await storeNewToken(ctx.knex, ctx.services, applicationId, false, auditedWriteRunner(ctx));
  // Deleted since it was found: as if it had never been.
  if (!token) throw new NotFoundError("Application", applicationId);
  return deployUrl(ctx.services, token);
}

/**
 * `regenerateDeployWebhookSecret`: a new push webhook secret (32 random bytes, hex), shown only in this answer.
 * @throws NotFoundError when not visible; ForbiddenError for members.
 */
export async function regenerateDeployWebhookSecret(ctx: Context, applicationId: string): Promise<string> {
  await manageableApplication(ctx, applicationId);
  const secret = randomBytes(32).toString("hex");
  await setWebhookSecret(ctx.knex, applicationId, ctx.services.secrets.encrypt(secret), auditedWriteRunner(ctx));
  return secret;
}

/** Auto-deploy settings of an application. */
export interface DeploySettings {
  autoDeploy: boolean;
  /** Exact branch name or glob; null = the source branch (default `main`). */
  branchFilter: string | null;
  /** Globs (`!` excludes); empty = every change deploys. */
  watchPaths: string[];
  /** Push requests must carry a valid signature/token. */
  requireSignature: boolean;
  /** Whether a push webhook secret is set (the secret itself is shown once, by regenerateDeployWebhookSecret). */
  hasWebhookSecret: boolean;
  /** Path the health probe requests (starts with `/`). */
  healthPath: string;
}

/** The settings of an application's deploy settings row. */
function settingsFromRow(row: DeploySettingsRow): DeploySettings {
  return {
    autoDeploy: row.autoDeploy,
    branchFilter: row.branchFilter ?? null,
    watchPaths: row.watchPaths ?? [],
    requireSignature: row.requireSignature,
    hasWebhookSecret: Boolean(row.webhookSecretEncrypted),
    healthPath: row.healthPath,
  };
}

/**
 * Reads the deploy settings of application `applicationId` fresh (after a write; call for a visible application
 * only). Reads of many applications go through the `deployments.settingsByApplication` loader.
 */
export async function deploySettings(knex: Knex, applicationId: string): Promise<DeploySettings> {
  return settingsFromRow((await deploySettingsOf(knex, applicationId))!);
}

/** A glob of `branchFilter` or `watchPaths`: trimmed, one line of at most 200 characters. */
const glob = z
  .string()
  .trim()
  .max(200, "At most 200 characters")
  .regex(/^[^\p{Cc}]*$/u, "Must not contain control characters");

/**
 * The checked fields of `updateDeploySettings` (errors named by field in `fieldErrors`); `healthPath` is the
 * applications module's rule, shared with updateApplication.
 */
const settingsInput = z.object({
  branchFilter: glob.nullish(),
  watchPaths: z.array(glob).max(50, "At most 50 globs").nullish(),
  healthPath: healthPathSchema.nullish(),
});

/**
 * `updateDeploySettings` (owners and admins): sets the given fields; `watchPaths` at most 50 globs of at most 200
 * characters; `healthPath` as the applications module's rule (starts with `/`, at most 2048 characters, no spaces,
 * control characters or `#`). A changed `healthPath` sets the application's `needsDeployment` (the rendered probes
 * request it; setDeploySettings); the other settings only filter pushes, nothing rendered.
 * @throws BadUserInputError, NotFoundError, ForbiddenError.
 */
export async function updateDeploySettings(
  ctx: Context,
  applicationId: string,
  input: {
    autoDeploy?: boolean | null;
    branchFilter?: string | null;
    watchPaths?: string[] | null;
    requireSignature?: boolean | null;
    healthPath?: string | null;
  },
): Promise<DeploySettings> {
  await manageableApplication(ctx, applicationId);
  const checked = parseInput(
    settingsInput,
    { branchFilter: input.branchFilter, watchPaths: input.watchPaths, healthPath: input.healthPath },
    "Invalid deploy settings",
  );
  const patch: Parameters<typeof setDeploySettings>[2] = {};
  if (input.autoDeploy != null) patch.autoDeploy = input.autoDeploy;
  if (input.requireSignature != null) patch.requireSignature = input.requireSignature;
  if (input.branchFilter !== undefined) patch.branchFilter = checked.branchFilter || null;
  if (checked.watchPaths != null) patch.watchPaths = checked.watchPaths.filter(Boolean);
  if (checked.healthPath != null) patch.healthPath = checked.healthPath;
  if (Object.keys(patch).length) await setDeploySettings(ctx.knex, applicationId, patch, auditedWriteRunner(ctx));
  return deploySettings(ctx.knex, applicationId);
}
