/**
 * Jobs of the deployments module: `deployments.run` runs one deployment (deployment.run.ts). Enqueued by
 * queueDeployment on the application's queue `deploy:<applicationId>`, so one deployment per application runs at
 * a time across instances (graphile-worker's named queue, and the queue's advisory lock held while a run lasts:
 * src/jobs/job-queue-lock.ts); a crash mid-run is retried (the run resumes a `running` deployment).
 * `deployments.reconcile` makes the cluster follow one organization's rows (reconcile.ts), planned periodically
 * by `deployments.plan-reconcile` through `deployments.reconcile-all`.
 */
import { z } from "zod";
import { defineJob } from "../../jobs/job-definition.ts";
import { runDeployment } from "./deployment.run.ts";
import { RUN_DEPLOYMENT_JOB } from "./deployment.service.ts";
import { planHealthProbes, probeApplicationHealth, probeDueApplications } from "./health.ts";
import { RECONCILE_TRIGGERS } from "./reconcile.metrics.ts";
import { planReconcile, RECONCILE_JOB, reconcileAll, reconcileOrganization } from "./reconcile.ts";

/** Runs one deployment. Payload `{ deploymentId }`. */
export const runDeploymentJob = defineJob({
  name: RUN_DEPLOYMENT_JOB,
  payload: z.object({ deploymentId: z.string().min(1) }),
  retry: { kind: "backoff", maxAttempts: 3 },
  handler: ({ deploymentId }, ctx) => runDeployment(ctx.services, ctx.log, deploymentId),
});

/** Probes one application's health (health.ts). Payload `{ applicationId, force? }`. Background work. */
export const probeHealthJob = defineJob({
  name: "deployments.probe-health",
  payload: z.object({ applicationId: z.string().min(1), force: z.boolean().optional() }),
  retry: { kind: "none" },
  background: true,
  handler: async ({ applicationId, force }, ctx) => {
    await probeApplicationHealth(ctx.services, ctx.log, applicationId, force ?? false);
  },
});

/** One tick of health probes: every due application (health.ts). Background work. */
export const probeHealthTickJob = defineJob({
  name: "deployments.probe-health-tick",
  payload: z.object({}),
  retry: { kind: "none" },
  background: true,
  handler: async (_p, ctx) => {
    await probeDueApplications(ctx.services, ctx.log);
  },
});

/** Every minute: plans the health probe ticks of the coming minute (SKIFF_HEALTH_INTERVAL). */
export const planHealthProbesJob = defineJob({
  name: "deployments.plan-health-probes",
  payload: z.object({}),
  retry: { kind: "none" },
  schedule: { cron: "* * * * *" },
  handler: async (_p, ctx) => {
    await planHealthProbes(ctx.services);
  },
});

/**
 * Reconciles one organization (reconcile.ts). Payload `{ organizationId, trigger }`. Retried with backoff (25
 * attempts, the last about a day after the first): an API-server outage delays the deletions, never drops them.
 */
export const reconcileJob = defineJob({
  name: RECONCILE_JOB,
  payload: z.object({ organizationId: z.string().min(1), trigger: z.enum(RECONCILE_TRIGGERS) }),
  retry: { kind: "backoff", maxAttempts: 25 },
  handler: async ({ organizationId, trigger }, ctx) => {
    await reconcileOrganization(ctx.services, ctx.log, organizationId, trigger);
  },
});

/** The periodic reconcile: enqueues one reconcile per organization concerned (reconcile.ts). Background work. */
export const reconcileAllJob = defineJob({
  name: "deployments.reconcile-all",
  payload: z.object({}),
  retry: { kind: "none" },
  background: true,
  handler: async (_p, ctx) => {
    await reconcileAll(ctx.services);
  },
});

/** Every minute: plans the next periodic reconcile (SKIFF_RECONCILE_INTERVAL). */
export const planReconcileJob = defineJob({
  name: "deployments.plan-reconcile",
  payload: z.object({}),
  retry: { kind: "none" },
  schedule: { cron: "* * * * *" },
  handler: async (_p, ctx) => {
    await planReconcile(ctx.services);
  },
});
