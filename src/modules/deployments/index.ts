/** Module manifest: deployments of applications, their lifecycle job and live updates (schema/deployments.graphql). */

import { liveRelay } from "../events.ts";
import { defineModule } from "../module.ts";
import { deployTriggerRoute } from "./deploy-trigger.rest.ts";
import { planHealthProbesJob, probeHealthJob, probeHealthTickJob, runDeploymentJob } from "./deployment.jobs.ts";
import { createDeploymentLoaders, type DeploymentLoaders } from "./deployment.loaders.ts";
import { deploymentResolvers } from "./deployment.resolvers.ts";
import { deploymentComputedColumns, deploymentSqlReads, deploymentSqlRows } from "./deployment.sql-reads.ts";

declare module "../module.ts" {
  interface ModuleLoaders {
    deployments: DeploymentLoaders;
  }
}

/** The deployments module. */
export const deploymentsModule = defineModule({
  name: "deployments",
  tables: ["deployments", "deployment_logs"],
  sqlReads: deploymentSqlReads,
  sqlRows: deploymentSqlRows,
  computedColumns: deploymentComputedColumns,
  resolvers: deploymentResolvers,
  createLoaders: ({ knex, loaders }) => createDeploymentLoaders(knex, () => loaders.applications.byId),
  restRoutes: [deployTriggerRoute],
  jobs: [runDeploymentJob, probeHealthJob, probeHealthTickJob, planHealthProbesJob],
  // The live subscription's events reach every instance's subscribers (`deployment.updated`, relayed to pub/sub).
  onEvent: liveRelay("deployment.updated"),
});

// The public surface: what other modules may import (they import nothing else of this folder).
export { queueDeployment } from "./deployment.service.ts";
