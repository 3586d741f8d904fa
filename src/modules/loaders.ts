/**
 * All per-request DataLoaders, created fresh for every request (and every subscription event)
 * so that caching never crosses requests or callers.
 */
import type { Knex } from "knex";
import type { SecretBox } from "../db/secrets.ts";
import type { AccessScope } from "./access/access-scope.ts";
import { createApiKeyLoaders } from "./api-keys/api-key.loaders.ts";
import { createApplicationLoaders } from "./applications/application.loaders.ts";
import { createDeploymentLoaders } from "./deployments/deployment.loaders.ts";
import { createSiteImportLoaders } from "./imports/site-import.loaders.ts";
import { createOrganizationLoaders } from "./organizations/organization.loaders.ts";
import { createProjectLoaders } from "./projects/project.loaders.ts";
import { createProviderLoaders } from "./providers/provider.loaders.ts";
import { createTeamLoaders } from "./team/team.loaders.ts";

/** Builds the loaders of one request. */
export function createLoaders(knex: Knex, scope: AccessScope, secrets: SecretBox) {
  const organizations = createOrganizationLoaders(knex, scope);
  const projects = createProjectLoaders(knex, scope);
  const applications = createApplicationLoaders(knex, scope, secrets);
  const deployments = createDeploymentLoaders(knex, applications.applicationById);
  const siteImports = createSiteImportLoaders(knex, scope);
  const providers = createProviderLoaders(knex);
  const team = createTeamLoaders(knex, scope);
  const apiKeys = createApiKeyLoaders(knex, scope);
  return {
    ...organizations,
    ...projects,
    ...applications,
    ...deployments,
    ...siteImports,
    ...providers,
    ...team,
    ...apiKeys,
  };
}

/** The loaders of one request. */
export type Loaders = ReturnType<typeof createLoaders>;
