/**
 * Contract of the deploy trigger row `POST /api/deploy/{token}` (spec: Deploy trigger) for
 * /api/openapi.json: the token in the path is the credential; without a provider header the body is an API
 * trigger, with `X-GitHub-Event` / `X-Gitlab-Event` it is the provider's push payload (only the fields the push
 * filters read are described; every other field is allowed and ignored). The answers are those of
 * deploy-trigger.service.ts.
 */
import { z } from "zod";
import { ErrorBody, ValidationErrorBody } from "../../shared/openapi/error-bodies.ts";
import type { RouteDoc } from "../../shared/openapi/route-doc.ts";

const changed = {
  added: z.array(z.string()).optional(),
  modified: z.array(z.string()).optional(),
  removed: z.array(z.string()).optional(),
};

/**
 * API trigger body (no provider header): absent, or an object whose `title` is a string and `commitSha` hexadecimal
 * (else 400); other fields are ignored.
 */
const ApiTriggerBody = z
  .looseObject({
    title: z
      .string()
      .optional()
      .meta({ description: "Deployment title: its first line, trimmed, at most 200 characters (longer is cut)." }),
    commitSha: z
      .string()
      .regex(/^[0-9a-fA-F]{7,64}$/)
      .optional()
      .meta({ description: "Commit deployed; the same SHA within 10 minutes answers the existing deployment." }),
  })
  .meta({ id: "DeployTriggerRequest", description: "An API trigger (no provider header); may be empty." });

/** GitHub `push` event payload, as far as the filters read it. */
const GitHubPushPayload = z
  .looseObject({
    ref: z.string().meta({ description: "`refs/heads/<branch>` (tags never deploy)." }),
    after: z.string().optional().meta({ description: "Head commit SHA (all zeros: the branch was deleted)." }),
    head_commit: z.looseObject({ message: z.string() }).nullable().optional().meta({
      description: "Its message may skip the deployment (`[skip ci]`, `[ci skip]`, `[no ci]`, `[skip deploy]`).",
    }),
    commits: z.array(z.looseObject(changed)).optional().meta({ description: "Changed paths, for `watchPaths`." }),
  })
  .meta({ id: "GitHubPushPayload", description: "GitHub `push` webhook payload (`X-GitHub-Event: push`)." });

/** GitLab `Push Hook` / `Tag Push Hook` payload, as far as the filters read it. */
const GitLabPushPayload = z
  .looseObject({
    ref: z.string().meta({ description: "`refs/heads/<branch>` (tags never deploy)." }),
    checkout_sha: z.string().nullable().optional().meta({ description: "Head commit SHA (else `after`)." }),
    after: z.string().optional(),
    commits: z
      .array(z.looseObject({ id: z.string().optional(), message: z.string().optional(), ...changed }))
      .optional()
      .meta({ description: "The head commit's message may skip the deployment; changed paths, for `watchPaths`." }),
  })
  .meta({ id: "GitLabPushPayload", description: "GitLab push webhook payload (`X-Gitlab-Event: Push Hook`)." });

/** 202: the deployment queued, or the one of the same commit SHA in the last 10 minutes. */
const DeployQueued = z
  .looseObject({
    deploymentId: z.string().meta({ description: "`dpl_…`; follow it with the `deploymentUpdated` subscription." }),
    status: z.enum(["queued", "running", "done", "error", "cancelled"]),
    deduplicated: z.literal(true).optional().meta({ description: "Present when an existing deployment is answered." }),
  })
  .meta({ id: "DeployQueued", description: "A deployment was queued (or deduplicated by commit SHA)." });

/** 200: nothing deployed, and why; or GitHub's `ping`. */
const DeployNotTriggered = z
  .union([
    z.looseObject({
      deployed: z.literal(false),
      reason: z
        .string()
        .meta({ description: 'E.g. `branch "feature/x" does not match "main"`, `auto-deploy is off`.' }),
    }),
    z.looseObject({ ok: z.literal(true), event: z.literal("ping") }),
  ])
  .meta({ id: "DeployNotTriggered", description: "A push (or other event) that does not deploy, or GitHub's ping." });

/** The row's contract. */
export const deployTriggerDoc: RouteDoc = {
  operationId: "triggerDeployment",
  summary: "Deploy an application: API trigger or GitHub/GitLab push webhook",
  description:
    "The URL is `Application.deployWebhookUrl`; its token is the credential. Without a provider header the call " +
    "queues a deployment (optional `title`, `commitSha`). As a repository webhook, the push passes the " +
    "application's filters (auto-deploy, branch filter, watch paths, skip markers) or is answered 200 " +
    "`deployed: false` with the reason. A signature header that does not verify, or none when the application " +
    "requires one, is 401. At most `SKIFF_DEPLOY_RATE_LIMIT` (30) requests per minute per token.",
  tag: "deployments",
  security: "none",
  params: z.object({
    token: z.string().meta({ description: "Deploy token (43 URL-safe base64 characters) of the deploy URL." }),
  }),
  headers: z.object({
    "x-github-event": z
      .string()
      .optional()
      .meta({ description: "GitHub event: `push` deploys (filters apply), `ping` answers 200, others do not deploy." }),
    "x-hub-signature-256": z.string().optional().meta({
      description: "GitHub: `sha256=` + hex HMAC-SHA256 of the raw body with the application's webhook secret.",
    }),
    "x-gitlab-event": z
      .string()
      .optional()
      .meta({ description: "GitLab event: `Push Hook` / `Tag Push Hook` (filters apply); others do not deploy." }),
    "x-gitlab-token": z.string().optional().meta({ description: "GitLab: the application's webhook secret." }),
  }),
  body: z.union([ApiTriggerBody, GitHubPushPayload, GitLabPushPayload]).optional(),
  responses: {
    "200": {
      description: "Nothing deployed (`deployed: false` and the reason), or GitHub's `ping`.",
      schema: DeployNotTriggered,
    },
    "202": { description: "Deployment queued (or the same SHA's, `deduplicated`).", schema: DeployQueued },
    "400": {
      description:
        "The body is not JSON (or holds a prototype key, or nests past 64 levels), an API trigger's `title` is not a " +
        "string or its `commitSha` not 7–64 hexadecimal digits (`details.fieldErrors`), or a push payload has no " +
        "`ref` (`details.formErrors`).",
      schema: ValidationErrorBody,
    },
    "401": { description: "A signature or token that does not verify, or a required one missing.", schema: ErrorBody },
    "404": { description: "Unknown deploy token (a regenerated one too).", schema: ErrorBody },
    "413": { description: "Body larger than 1 MiB." },
    "429": { description: "Rate limited.", schema: ErrorBody, headers: { "Retry-After": "Seconds to wait." } },
  },
};
