/**
 * Deployment writes. A queued deployment is picked up asynchronously by the build pipeline (outside this
 * service); building and deploying can still fail after it is queued (spec: Import status).
 */
import type { ServiceContext } from "../context.ts";
import { Deployment } from "./deployment.model.ts";

/**
 * Queues a deployment of `applicationId` (in the caller's transaction when `ctx.knex` is one): status `queued`, `title` and `description` as given,
 * `trigger` e.g. `import` or `api`.
 */
export async function queueDeployment(
  ctx: ServiceContext,
  input: { applicationId: string; title: string; description?: string | null; trigger: string },
): Promise<Deployment> {
  return Deployment.query(ctx.knex)
    .insert({
      applicationId: input.applicationId,
      status: "queued",
      title: input.title,
      description: input.description ?? null,
      trigger: input.trigger,
    })
    .returning("*");
}
