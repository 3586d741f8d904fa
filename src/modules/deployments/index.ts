/** Module manifest: deployments of applications (read through the agent API and the project tree). */

import { defineModule } from "../module.ts";
import { createDeploymentLoaders, type DeploymentLoaders } from "./deployment.loaders.ts";

declare module "../module.ts" {
  interface ModuleLoaders {
    deployments: DeploymentLoaders;
  }
}

/** The deployments module. */
export const deploymentsModule = defineModule({
  name: "deployments",
  createLoaders: ({ knex, loaders }) => createDeploymentLoaders(knex, () => loaders.applications.byId),
});
