/** Module manifest: root fields of schema/base.graphql (`Mutation.ping`, `Subscription.heartbeat`). */
import { defineModule } from "../module.ts";
import { systemResolvers } from "./system.resolvers.ts";

/** The system module. */
export const systemModule = defineModule({
  name: "system",
  resolvers: systemResolvers,
});
