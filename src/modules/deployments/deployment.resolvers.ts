/** Resolvers of schema/deployments.graphql: thin calls into the deployment service and events. */
import type { Resolvers } from "../../generated/graphql.ts";
import { type DeploymentEvent, deploymentUpdates } from "./deployment.events.ts";
import { cancelDeployment, deployApplication, deploymentLogs, redeployDeployment } from "./deployment.service.ts";

/** Deployment fields, deploy mutations and the `deploymentUpdated` subscription. */
export const deploymentResolvers: Resolvers = {
  Mutation: {
    deployApplication: (_p, { applicationId, title }, ctx) => deployApplication(ctx, applicationId, title),
    cancelDeployment: (_p, { id }, ctx) => cancelDeployment(ctx, id),
    redeployDeployment: (_p, { id }, ctx) => redeployDeployment(ctx, id),
  },
  Subscription: {
    deploymentUpdated: {
      subscribe: (_p, { applicationId }, ctx) => deploymentUpdates(ctx, applicationId),
      resolve: (event: DeploymentEvent) => event,
    },
  },
  Deployment: {
    trigger: (d) => d.trigger,
    logs: (d, _x, ctx) => deploymentLogs(ctx.knex, d.id),
    manifests: (d) => (d.manifests as unknown as Array<Record<string, unknown>> | null) ?? null,
  },
  DeploymentUpdate: {
    deployment: (e) => e.deployment!,
  },
};
