/**
 * The deploy trigger URL `POST {base_url}/api/deploy/<token>` (spec: Deploy trigger). The token in the
 * path is the credential. Without a provider header it is an API trigger; with `X-GitHub-Event` /
 * `X-Gitlab-Event` it is a provider webhook (push payloads, filtered; GitHub `ping` → 200).
 *
 * Answers: 202 `{ deploymentId, status }` when a deployment is queued (or, for a commit SHA deployed in the last
 * 10 minutes, the existing one with `deduplicated: true`); 200 `{ deployed: false, reason }` for a push that does
 * not deploy; 200 `{ ok: true, event: "ping" }` for GitHub's ping; 400 `{ error, code }` for a body that is not JSON
 * (or holds a prototype key, or nests past 64 levels: src/shared/json-text.ts), and for an API trigger whose body is
 * not an object, whose `title` is not a string or whose `commitSha` is not hexadecimal (with `fieldErrors`);
 * 401 `{ error }` for a missing/invalid signature; 404 `{ error }` for an unknown token (a regenerated one too);
 * 429 `{ error }` with `Retry-After` (seconds) above SKIFF_DEPLOY_RATE_LIMIT (default 30) requests per minute per token.
 */
import { isUtf8 } from "node:buffer";
import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import type { Logger } from "pino";
import { INVALID_UTF8_MESSAGE, readJsonText } from "../../shared/json-text.ts";
import { consumeRateLimit } from "../../shared/rate-limit.ts";
import type { RestResponse } from "../../shared/rest-route.ts";
import { applicationByDeployTokenHash, lockApplication } from "../applications/index.ts";
import { systemContext } from "../context.ts";
import type { AppServices } from "../services.ts";
import { deployTokenHash } from "./deploy-token.ts";
import { queueDeployment } from "./deployment.service.ts";
import { evaluatePush, githubPush, gitlabPush, type PushEvent } from "./push-filters.ts";

/** A commit SHA as a deployment takes it (an abbreviated or full SHA-1 or SHA-256, hexadecimal). */
const COMMIT_SHA = /^[0-9a-f]{7,64}$/i;
/** The message of a commit SHA that is not one. */
const COMMIT_SHA_MESSAGE = "Must be 7 to 64 hexadecimal digits";

/** Window in which the same commit SHA of the same application starts one deployment. */
export const SAME_SHA_WINDOW_MS = 10 * 60 * 1000;

/** What the trigger sees of the request. */
export interface TriggerRequest {
  token: string;
  headers: Record<string, string | string[] | undefined>;
  /** The body exactly as received (empty when none). */
  rawBody: Buffer;
}

function header(req: TriggerRequest, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** Constant-time equality of two strings (compared as SHA-256 digests, so lengths never leak). */
function sameSecret(a: string, b: string): boolean {
  const d = (s: string) => createHash("sha256").update(s).digest();
  return timingSafeEqual(d(a), d(b)) && a.length === b.length;
}

/** GitHub's check: `sha256=` + hex HMAC-SHA256 of the raw body with the secret, constant time. */
export function githubSignatureValid(secret: string, rawBody: Buffer, signature: string): boolean {
  if (!secret) return false;
  const expected = Buffer.from(`sha256=${createHmac("sha256", secret).update(rawBody).digest("hex")}`);
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

const json = (status: number, body: unknown, headers?: Record<string, string>): RestResponse => ({
  status,
  body,
  ...(headers && { headers }),
});

/**
 * A 400 in the shape of every REST refusal (docs/rest.md): `{ error, code: "BAD_REQUEST", details }`, the invalid
 * fields in `details.fieldErrors` (and, as before, at the top level), or the request as a whole in `formErrors`.
 */
function badRequest(error: string, fieldErrors: Record<string, string[]> = {}): RestResponse {
  const fields = Object.keys(fieldErrors).length > 0;
  const details = { fieldErrors, formErrors: fields ? [] : [error] };
  return json(400, { error, code: "BAD_REQUEST", ...(fields && { fieldErrors }), details });
}

/** Handles one trigger request (see the file comment). Never throws for bad input. */
export async function handleDeployTrigger(
  services: AppServices,
  log: Logger,
  req: TriggerRequest,
): Promise<RestResponse> {
  const { knex } = services;
  const notFound = json(404, { error: "Unknown deploy URL" });
  if (!/^[A-Za-z0-9_-]{43}$/.test(req.token)) return notFound;
  const hash = deployTokenHash(req.token);
  const app = await applicationByDeployTokenHash(knex, hash);
  if (!app) return notFound;
  const response = await answerTrigger(services, log, req, app, hash);
  // Every call of a known deploy URL, refused or not, is its application's organization's (docs/audit-log.md).
  return response.audit
    ? response
    : { ...response, audit: { organizationId: app.organizationId, targetIds: [app.id] } };
}

/** The answer to a trigger request of `app` (its deploy URL's token hashed to `hash`): the rest of the file comment. */
async function answerTrigger(
  services: AppServices,
  log: Logger,
  req: TriggerRequest,
  app: NonNullable<Awaited<ReturnType<typeof applicationByDeployTokenHash>>>,
  hash: string,
): Promise<RestResponse> {
  const { knex } = services;
  // Per token; counted in the agent API's table under its own key prefix.
  const perMinute = services.config.SKIFF_DEPLOY_RATE_LIMIT;
  const limit = { table: "agent_rate_limits", prefix: "deploy", points: perMinute, windowSeconds: 60 };
  const counted = await consumeRateLimit(knex, limit, hash);
  if (!counted.allowed) {
    return json(
      429,
      { error: `Too many deploy requests: at most ${perMinute} per minute` },
      { "Retry-After": String(counted.retryAfterSeconds) },
    );
  }

  const githubEvent = header(req, "x-github-event");
  const gitlabEvent = header(req, "x-gitlab-event");
  const secret = app.webhookSecretEncrypted ? services.secrets.decrypt(app.webhookSecretEncrypted) : "";
  const hubSignature = header(req, "x-hub-signature-256");
  const gitlabToken = header(req, "x-gitlab-token");
  if (hubSignature !== undefined && !githubSignatureValid(secret, req.rawBody, hubSignature)) {
    return json(401, { error: "X-Hub-Signature-256 does not match the application's webhook secret" });
  }
  // GitHub's SHA-1 signature is not checked (SHA-256 is, and GitHub sends both), but one sent alone is a signature
  // that does not verify here: refused, never read as an unsigned request.
  if (hubSignature === undefined && header(req, "x-hub-signature") !== undefined) {
    return json(401, { error: "X-Hub-Signature (SHA-1) is not accepted: sign with X-Hub-Signature-256" });
  }
  if (gitlabToken !== undefined && (!secret || !sameSecret(gitlabToken, secret))) {
    return json(401, { error: "X-Gitlab-Token does not match the application's webhook secret" });
  }
  if (app.requireSignature && hubSignature === undefined && gitlabToken === undefined) {
    return json(401, { error: "This application requires a signed request (X-Hub-Signature-256 or X-Gitlab-Token)" });
  }

  // None: no body at all (JSON `null` is a body, refused as any value that is not an object).
  let body: unknown;
  if (req.rawBody.length > 0) {
    // JSON is UTF-8 (RFC 8259): bytes that do not decode are refused, never read with U+FFFD in their place.
    if (!isUtf8(req.rawBody)) return badRequest(INVALID_UTF8_MESSAGE);
    const read = readJsonText(req.rawBody.toString("utf8"));
    if ("refused" in read) return badRequest(read.refused);
    body = read.value;
  }

  let push: PushEvent | null = null;
  if (githubEvent !== undefined) {
    if (githubEvent === "ping") return json(200, { ok: true, event: "ping" });
    if (githubEvent !== "push")
      return json(200, { deployed: false, reason: `GitHub event "${githubEvent}" does not deploy (only push)` });
    push = githubPush(body);
  } else if (gitlabEvent !== undefined) {
    if (gitlabEvent !== "Push Hook" && gitlabEvent !== "Tag Push Hook") {
      return json(200, { deployed: false, reason: `GitLab event "${gitlabEvent}" does not deploy (only Push Hook)` });
    }
    push = gitlabPush(body);
  }

  if (githubEvent !== undefined || gitlabEvent !== undefined) {
    if (!push) return badRequest("The push payload has no ref");
    // The head commit is what the build checks out (`<repository>#<sha>`): only a commit SHA may stand there.
    if (push.sha !== null && !COMMIT_SHA.test(push.sha)) {
      return badRequest("Invalid commitSha: the push payload's head commit is not a commit SHA", {
        commitSha: [COMMIT_SHA_MESSAGE],
      });
    }
    const source = (typeof app.source === "string" ? JSON.parse(app.source) : app.source) ?? {};
    const verdict = evaluatePush(push, {
      autoDeploy: app.autoDeploy,
      branchFilter: app.branchFilter,
      watchPaths: app.watchPaths ?? [],
      sourceBranch: source.branch ?? "main",
    });
    if (!verdict.deploy) return json(200, { deployed: false, reason: verdict.reason });
    const title = push.message.split("\n")[0]!.trim().slice(0, 200) || `Push to ${verdict.branch}`;
    return queue(services, log, app, {
      title,
      trigger: "push",
      commitSha: push.sha,
      description: `Push to ${verdict.branch}`,
    });
  }

  const api = apiTrigger(body);
  if ("field" in api) {
    return badRequest(`Invalid ${api.field}: ${api.message}`, { [api.field]: [api.message] });
  }
  return queue(services, log, app, { title: api.title, trigger: "api", commitSha: api.commitSha });
}

/**
 * An API trigger's body (none, or a JSON object whose other fields are ignored) as the deployment's title — its
 * first line without control characters, trimmed, at most 200 characters, else "API deployment" — and commit SHA
 * (lower-cased); or the field that does not fit: the body itself when not an object, `title` when not a string,
 * `commitSha` when not 7 to 64 hexadecimal digits.
 */
function apiTrigger(body: unknown): { title: string; commitSha: string | null } | { field: string; message: string } {
  if (body === undefined) return { title: "API deployment", commitSha: null };
  if (body === null || typeof body !== "object" || Array.isArray(body)) {
    return { field: "body", message: "Must be a JSON object ({ title?, commitSha? }) or empty" };
  }
  const { title, commitSha } = body as Record<string, unknown>;
  if (title !== undefined && title !== null && typeof title !== "string") {
    return { field: "title", message: "Must be a string" };
  }
  if (commitSha !== undefined && commitSha !== null && !(typeof commitSha === "string" && COMMIT_SHA.test(commitSha))) {
    return { field: "commitSha", message: COMMIT_SHA_MESSAGE };
  }
  const line =
    typeof title === "string"
      ? title
          .split(/\r?\n/)[0]!
          .replace(/\p{Cc}/gu, "")
          .trim()
          .slice(0, 200)
      : "";
  return {
    title: line || "API deployment",
    commitSha: typeof commitSha === "string" ? commitSha.toLowerCase() : null,
  };
}

/**
 * Queues a deployment unless the same SHA was deployed in the last 10 minutes (checked under the app's row lock); the
 * answer names the application and deployment for the audit log.
 */
async function queue(
  services: AppServices,
  log: Logger,
  app: { id: string; organizationId: string },
  input: { title: string; trigger: string; commitSha: string | null; description?: string },
): Promise<RestResponse> {
  const applicationId = app.id;
  const audited = (response: RestResponse, deploymentId: string): RestResponse => ({
    ...response,
    audit: { organizationId: app.organizationId, targetIds: [applicationId, deploymentId] },
  });
  return services.knex.transaction(async (trx) => {
    await lockApplication(trx, applicationId);
    if (input.commitSha) {
      const since = new Date(services.now().getTime() - SAME_SHA_WINDOW_MS);
      const existing = await trx("deployments")
        .where({ application_id: applicationId, commit_sha: input.commitSha })
        .whereNot({ status: "cancelled" })
        .where("created_at", ">", since)
        .orderBy("created_at", "desc")
        .first("id", "status");
      if (existing) {
        return audited(
          json(202, { deploymentId: existing.id, status: existing.status, deduplicated: true }),
          existing.id,
        );
      }
    }
    const deployment = await queueDeployment(
      { ...systemContext(services, log), knex: trx },
      { applicationId, ...input },
    );
    return audited(json(202, { deploymentId: deployment.id, status: "queued" }), deployment.id);
  });
}
