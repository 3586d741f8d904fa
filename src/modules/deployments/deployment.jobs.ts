/**
 * Jobs of the deployments module: `deployments.run` runs one deployment (deployment.run.ts). Enqueued by
 * queueDeployment on the application's queue `deploy:<applicationId>`, so one deployment per application runs at
 * a time; a crash mid-run is retried (the run resumes a `running` deployment).
 */
import { z } from "zod";
import { defineJob } from "../../jobs/job-definition.ts";
import { runDeployment } from "./deployment.run.ts";
import { RUN_DEPLOYMENT_JOB } from "./deployment.service.ts";

/** Runs one deployment. Payload `{ deploymentId }`. */
export const runDeploymentJob = defineJob({
  name: RUN_DEPLOYMENT_JOB,
  payload: z.object({ deploymentId: z.string().min(1) }),
  retry: { kind: "backoff", maxAttempts: 3 },
  handler: ({ deploymentId }, ctx) => runDeployment(ctx.services, ctx.log, deploymentId),
});
