/** Module manifest: agent tokens and the read-only agent API (schema/agent.graphql, `/api/agent/*`). */

import { defineModule } from "../module.ts";
import { agentResolvers } from "./agent.resolvers.ts";
import { agentRoutes } from "./agent.rest.ts";
import { agentSqlReads } from "./agent.sql-reads.ts";

/** The agent module. */
export const agentModule = defineModule({
  name: "agent",
  tables: ["agent_tokens"],
  sqlReads: agentSqlReads,
  resolvers: agentResolvers,
  restRoutes: agentRoutes,
});
