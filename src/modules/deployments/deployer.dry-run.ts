/**
 * The `dry-run` deployer (the default, SKIFF_DEPLOYER unset): logs what was rendered and applies nothing. The
 * manifests are stored on the deployment by the run itself; README "Deployments" says what dry-run does not do.
 */
import type { Deployer } from "./deployer.ts";

/** `dry-run`: applies nothing, ends `done`. */
export const dryRunDeployer: Deployer = {
  name: "dry-run",
  async apply(manifests, run) {
    await run.log(
      `rendered ${manifests.length} manifests: ${manifests.map((m) => `${m.kind}/${m.metadata.name}`).join(", ")}`,
    );
    await run.log("dry run: nothing applied");
  },
};
