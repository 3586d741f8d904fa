/**
 * Queueing a deployment from this module's mutations (`deploy: true`): the deployments module, above this one,
 * hands its `queueDeployment` in at load ({@link provideApplicationDeployer}), so that this module does not import
 * it (module order: deployments → applications).
 */
import type { ServiceContext } from "../context.ts";

/** Queues a deployment of `applicationId` titled `title` in `ctx.knex`'s transaction; resolves to its id. */
export type ApplicationDeployer = (
  ctx: ServiceContext,
  input: { applicationId: string; title: string; trigger: string },
) => Promise<{ id: string }>;

let deployer: ApplicationDeployer | null = null;

/** Registers the deployments module's queueing (called once when that module loads). */
export function provideApplicationDeployer(queue: ApplicationDeployer): void {
  deployer = queue;
}

/**
 * Queues a deployment of `applicationId` (trigger `manual`) in `ctx.knex`'s transaction.
 * @throws Error when the deployments module is not loaded.
 */
export function deployInTransaction(
  ctx: ServiceContext,
  applicationId: string,
  title: string,
): Promise<{ id: string }> {
  if (!deployer) throw new Error("No deployer: the deployments module is not loaded");
  return deployer(ctx, { applicationId, title, trigger: "manual" });
}
