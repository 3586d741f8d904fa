/**
 * The deployer interface (spec "States and transitions"): what runs a deployment's rendered manifests. One file per
 * deployer: deployer.dry-run.ts (the default) and deployer.kubernetes.ts; deployment.run.ts picks one with
 * SKIFF_DEPLOYER and drives it.
 */
import type { Manifest } from "./deployment.manifests.ts";

/** What a deployer gets besides the manifests: the deployment's log, cancellation and the health feed. */
export interface DeployerRun {
  deploymentId: string;
  /** Appends a line to the deployment's log (published live to `deploymentUpdated`). */
  log(text: string, level?: "info" | "warn" | "error"): Promise<void>;
  /** Aborted when the deployment is cancelled while it runs: stop waiting and throw. */
  signal: AbortSignal;
  /**
   * Reports whether the application's rollout is available (true) or not (false). Feeds the application's
   * health (`healthy`/`unhealthy`, emitting `app.health_changed` on a change), like the health probes do.
   */
  reportAvailability(available: boolean, detail: string): Promise<void>;
}

/** Runs rendered manifests; throws an Error with a readable message to end the deployment `error`. */
export interface Deployer {
  /** `dry-run` or `kubernetes`, logged at the start of each deployment. */
  name: string;
  /**
   * Applies `manifests` (rendered in apply order by deployment.manifests.ts). They carry secret values (Secrets'
   * data): never log, store or put them in an error message; the deployment stores a redacted copy.
   */
  apply(manifests: Manifest[], run: DeployerRun): Promise<void>;
}
