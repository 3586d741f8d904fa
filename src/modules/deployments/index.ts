/** Module manifest: deployments of applications, their lifecycle job and live updates (schema/deployments.graphql). */

import type DataLoader from "dataloader";
import { liveRelay } from "../events.ts";
import { defineModule } from "../module.ts";
import { deployTriggerRoute } from "./deploy-trigger.rest.ts";
import { endSubscriptionsOfDeleted } from "./deployment.events.ts";
import {
  planHealthProbesJob,
  planReconcileJob,
  probeHealthJob,
  probeHealthTickJob,
  reconcileAllJob,
  reconcileJob,
  runDeploymentJob,
} from "./deployment.jobs.ts";
import { Deployment } from "./deployment.model.ts";
import { deploymentComputedColumns, deploymentReads } from "./deployment.reads.ts";
import { deploymentResolvers } from "./deployment.resolvers.ts";
import { deploymentRoutes } from "./deployment.rest.ts";
import { deploymentLogTable, deploymentTable, reconcileStatusTable } from "./deployment.tables.ts";
import { reconcileOnChange } from "./reconcile.events.ts";
import { reconcileMetrics } from "./reconcile.metrics.ts";

declare module "../module.ts" {
  interface ModuleLoaders {
    deployments: { byId: DataLoader<string, Deployment | null> };
  }
}

const relay = liveRelay("deployment.updated");

// The reconcile's series are exported from the first scrape (docs/operations.md "Metrics from the first scrape").
reconcileMetrics();

/** The deployments module. */
export const deploymentsModule = defineModule({
  name: "deployments",
  tables: ["deployments", "deployment_logs", "reconcile_status"],
  reads: deploymentReads,
  descriptors: [deploymentTable, deploymentLogTable, reconcileStatusTable],
  computedColumns: deploymentComputedColumns,
  resolvers: deploymentResolvers,
  createLoaders: ({ byId }) => ({ byId: byId.loader(deploymentTable, Deployment) }),
  restRoutes: [deployTriggerRoute, ...deploymentRoutes],
  jobs: [
    runDeploymentJob,
    probeHealthJob,
    probeHealthTickJob,
    planHealthProbesJob,
    reconcileJob,
    reconcileAllJob,
    planReconcileJob,
  ],
  onEvent: async (ctx, event) => {
    // The live subscription's events reach every instance's subscribers (`deployment.updated`, relayed to pub/sub).
    await relay(ctx, event);
    // A change of a resource: the cluster follows (reconcile.ts), in the changing transaction.
    await reconcileOnChange(ctx, event);
    // A deleted application's live subscriptions complete.
    await endSubscriptionsOfDeleted(ctx, event);
  },
});

// For the organization import (src/modules/transfer): the management mutations' own writes.
export { updateDeploySettings } from "./deploy-token.ts";
// The public surface: what other modules may import (they import nothing else of this folder).
export { deployApplication, queueDeployment } from "./deployment.service.ts";
