/**
 * Deployment writes. A queued deployment is picked up asynchronously by the build pipeline (outside this
 * service); building and deploying can still fail after it is queued (spec: Import status).
 */
import type { Knex } from "knex";
import { Deployment } from "./deployment.model.ts";

/**
 * Queues a deployment of `applicationId` inside `trx`: status `queued`, `title` and `description` as given,
 * `trigger` e.g. `import` or `api`.
 */
export async function queueDeployment(
  trx: Knex.Transaction,
  input: { applicationId: string; title: string; description?: string | null; trigger: string },
): Promise<Deployment> {
  return Deployment.query(trx)
    .insert({
      applicationId: input.applicationId,
      status: "queued",
      title: input.title,
      description: input.description ?? null,
      trigger: input.trigger,
    })
    .returning("*");
}
