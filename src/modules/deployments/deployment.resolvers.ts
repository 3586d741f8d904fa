/**
 * Resolvers of schema/deployments.graphql: thin calls into the deployment service and events. Deployments, logs and
 * deploy settings are read by compiled SQL (deployment.reads.ts).
 */
import type { Resolvers } from "../../generated/graphql.ts";
import {
  deployWebhookUrl,
  regenerateDeployToken,
  regenerateDeployWebhookSecret,
  updateDeploySettings,
} from "./deploy-token.ts";
import { type DeploymentEvent, deploymentUpdates } from "./deployment.events.ts";
import { cancelDeployment, deployApplication, redeployDeployment } from "./deployment.service.ts";

/** The deploy webhook URL (decrypted token), deploy mutations and the `deploymentUpdated` subscription. */
export const deploymentResolvers: Resolvers = {
  Mutation: {
    deployApplication: (_p, { applicationId, title }, ctx) => deployApplication(ctx, applicationId, title),
    cancelDeployment: (_p, { id }, ctx) => cancelDeployment(ctx, id),
    redeployDeployment: (_p, { id }, ctx) => redeployDeployment(ctx, id),
    regenerateDeployToken: (_p, { applicationId }, ctx) => regenerateDeployToken(ctx, applicationId),
    regenerateDeployWebhookSecret: (_p, { applicationId }, ctx) => regenerateDeployWebhookSecret(ctx, applicationId),
    updateDeploySettings: (_p, { applicationId, input }, ctx) => updateDeploySettings(ctx, applicationId, input),
  },
  Application: {
    // From the application's row (its encrypted token), as the compiled read carried it.
    deployWebhookUrl: (a, _x, ctx) => deployWebhookUrl(ctx, a as typeof a & { deployTokenEncrypted?: string | null }),
  },
  Subscription: {
    deploymentUpdated: {
      subscribe: (_p, { applicationId, after }, ctx) => deploymentUpdates(ctx, applicationId, after ?? null),
      resolve: (event: DeploymentEvent) => event,
    },
  },
  DeploymentUpdate: {
    deployment: (e) => e.deployment!,
  },
};
