/** Resolvers of schema/deployments.graphql: thin calls into the deployment service and events. */
import type { Resolvers } from "../../generated/graphql.ts";
import { NotFoundError } from "../../shared/errors.ts";
import { checkPageSize } from "../../shared/pagination.ts";
import {
  deployWebhookUrl,
  regenerateDeployToken,
  regenerateDeployWebhookSecret,
  updateDeploySettings,
} from "./deploy-token.ts";
import { type DeploymentEvent, deploymentUpdates } from "./deployment.events.ts";
import type { Deployment } from "./deployment.model.ts";
import { cancelDeployment, deployApplication, deploymentLogs, redeployDeployment } from "./deployment.service.ts";

/** Deployment fields, an application's deployments, deploy mutations and the `deploymentUpdated` subscription. */
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
    // An application's newest deployments: taken from the application's statement when the look-ahead read them.
    deployments: (a, { first }, ctx) => {
      const size = checkPageSize(first ?? 10, 50);
      const prefetched = a.prefetched?.deployments;
      if (prefetched && prefetched.first >= size) return prefetched.rows.slice(0, size) as Deployment[];
      return ctx.loaders.deployments.byApplication.load({ applicationId: a.id, first: size });
    },
    deployWebhookUrl: (a, _x, ctx) => deployWebhookUrl(ctx, a.id),
    deploySettings: async (a, _x, ctx) => {
      const settings = await ctx.loaders.deployments.settingsByApplication.load(a.id);
      if (!settings) throw new NotFoundError("Application", a.id);
      return settings;
    },
    health: (a) => (a.health ?? "unknown").toUpperCase() as "UNKNOWN" | "HEALTHY" | "UNHEALTHY",
    healthCheckedAt: (a) => a.healthCheckedAt ?? null,
  },
  Subscription: {
    deploymentUpdated: {
      subscribe: (_p, { applicationId }, ctx) => deploymentUpdates(ctx, applicationId),
      resolve: (event: DeploymentEvent) => event,
    },
  },
  Deployment: {
    __resolveReference: (ref, ctx) => ctx.loaders.deployments.byId.load(ref.id),
    application: async (d, _x, ctx) => (await ctx.loaders.applications.byId.load(d.applicationId))!,
    trigger: (d) => d.trigger,
    logs: (d, _x, ctx) => deploymentLogs(ctx.knex, d.id),
    // Plain rows of the read path leave `manifests` out (undefined): loaded by id only when selected.
    manifests: async (d, _x, ctx) => {
      const manifests =
        d.manifests === undefined ? (await ctx.loaders.deployments.byId.load(d.id))?.manifests : d.manifests;
      return (manifests as unknown as Array<Record<string, unknown>> | null | undefined) ?? null;
    },
  },
  DeploymentUpdate: {
    deployment: (e) => e.deployment!,
  },
};
