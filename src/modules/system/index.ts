/**
 * Module manifest: root fields of schema/base.graphql (`Mutation.ping`, `Subscription.heartbeat`) and the live-event
 * log's pruning (job `system.prune-event-log`).
 */
import { defineModule } from "../module.ts";
import { pruneEventLogJob } from "./event-log.jobs.ts";
import { systemResolvers } from "./system.resolvers.ts";

/** The system module. */
export const systemModule = defineModule({
  name: "system",
  resolvers: systemResolvers,
  jobs: [pruneEventLogJob],
});
