/**
 * Registry of domain modules: each contributes resolvers (and an SDL file in schema/).
 * Add a module here and its SDL file; nothing else needs to change.
 */
import type { Resolvers } from "../generated/graphql.ts";
import { agentResolvers } from "./agent/agent.resolvers.ts";
import { apiKeyResolvers } from "./api-keys/api-key.resolvers.ts";
import { applicationResolvers } from "./applications/application.resolvers.ts";
import { siteImportResolvers } from "./imports/site-import.resolvers.ts";
import { organizationResolvers } from "./organizations/organization.resolvers.ts";
import { projectResolvers } from "./projects/project.resolvers.ts";
import { providerResolvers } from "./providers/provider.resolvers.ts";
import { systemResolvers } from "./system/system.resolvers.ts";
import { teamResolvers } from "./team/team.resolvers.ts";

/** Resolver maps of every module, merged by src/server/schema.ts. */
export const moduleResolvers: Resolvers[] = [
  systemResolvers,
  organizationResolvers,
  projectResolvers,
  applicationResolvers,
  agentResolvers,
  teamResolvers,
  apiKeyResolvers,
  siteImportResolvers,
  providerResolvers,
];
