/** Module manifest: applications, domains, environment variables, databases (schema/applications.graphql). */

import { defineModule } from "../module.ts";
import { createApplicationLoaders } from "./application.loaders.ts";
import { applicationResolvers } from "./application.resolvers.ts";
import { applicationComputedColumns, applicationSqlReads, applicationSqlRows } from "./application.sql-reads.ts";
import { manageRoutes } from "./manage.rest.ts";

declare module "../module.ts" {
  interface ModuleLoaders {
    applications: ReturnType<typeof createApplicationLoaders>;
  }
}

/** The applications module. */
export const applicationsModule = defineModule({
  name: "applications",
  tables: ["applications", "domains", "environment_variables"],
  sqlReads: applicationSqlReads,
  sqlRows: applicationSqlRows,
  computedColumns: applicationComputedColumns,
  resolvers: applicationResolvers,
  restRoutes: manageRoutes,
  createLoaders: ({ knex, scope }) => createApplicationLoaders(knex, scope),
});

// The public surface: what other modules may import (they import nothing else of this folder).
export { provideApplicationDeployer } from "./application.deployer.ts";
export { type ExportedApplication, exportApplications } from "./application.export.ts";
export {
  envVarsSchema,
  healthPathSchema,
  hostnameSchema,
  portSchema,
  type SourceInput,
  sourceSchema,
} from "./application.input.ts";
export type { Application } from "./application.model.ts";
export { checkApplicationPrerequisites } from "./application.prerequisites.ts";
export {
  type ApplicationRow,
  type ApplicationSubject,
  applicationByDeployTokenHash,
  applicationById,
  applicationForProbe,
  applicationIdsOfOrganization,
  applicationStatusOf,
  applicationSubject,
  applicationsDueForProbe,
  applicationsOfOrganization,
  clearNeedsDeployment,
  type DeploySettingsRow,
  deploySettingsOf,
  deployTokenOf,
  domainsOfApplication,
  environmentVariablesOfApplication,
  firstDomainHost,
  lockApplication,
  lockApplicationHealth,
  organizationIdsOfApplications,
  setApplicationHealth,
  setApplicationStatus,
  setDeploySettings,
  settleDeployingApplication,
  setWebhookSecret,
  storeDeployToken,
} from "./application.queries.ts";
export {
  createApplication,
  createDomain,
  domainTakenMessage,
  domainWithHost,
  newAppName,
  setEnvironmentVariables,
  storedSource,
} from "./application.service.ts";
export { applicationProjectIdSql, visibleApplicationId } from "./application.sql-reads.ts";
// For the organization import (src/modules/transfer): the management mutations' services.
export { createApplicationIn } from "./manage-applications.service.ts";
export { createDatabaseIn } from "./manage-databases.service.ts";
export { addDomain } from "./manage-domains.service.ts";
export { createEnvironment as createEnvironmentIn } from "./manage-environments.service.ts";
export { setEnvironmentVariables as setApplicationVariables } from "./manage-variables.service.ts";
