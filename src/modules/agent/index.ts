/** Module manifest: agent tokens and the read-only agent API (schema/agent.graphql, `/api/agent/*`). */

import { defineModule } from "../module.ts";
import { provideCredentialSource } from "../organizations/index.ts";
import { agentMcpTools } from "./agent.mcp.ts";
import { agentReads, agentTokenCredentialSelect } from "./agent.reads.ts";
import { agentResolvers } from "./agent.resolvers.ts";
import { agentRoutes } from "./agent.rest.ts";

provideCredentialSource("agentToken", agentTokenCredentialSelect);

/** The agent module. */
export const agentModule = defineModule({
  name: "agent",
  tables: ["agent_tokens"],
  reads: agentReads,
  resolvers: agentResolvers,
  restRoutes: agentRoutes,
  mcpTools: agentMcpTools,
});
