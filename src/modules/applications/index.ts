/** Module manifest: applications, domains, environment variables, databases (schema/applications.graphql). */

import type DataLoader from "dataloader";
import { defineModule } from "../module.ts";
import { Application } from "./application.model.ts";
import { applicationComputedColumns, applicationReads } from "./application.reads.ts";
import { applicationResolvers } from "./application.resolvers.ts";
import { applicationTable, domainTable, environmentVariableTable } from "./application.tables.ts";
import { manageRoutes } from "./manage.rest.ts";

declare module "../module.ts" {
  interface ModuleLoaders {
    applications: { byId: DataLoader<string, Application | null> };
  }
}

/** The applications module. */
export const applicationsModule = defineModule({
  name: "applications",
  tables: ["applications", "domains", "environment_variables"],
  reads: applicationReads,
  descriptors: [applicationTable, domainTable, environmentVariableTable],
  computedColumns: applicationComputedColumns,
  resolvers: applicationResolvers,
  restRoutes: manageRoutes,
  createLoaders: ({ byId }) => ({ byId: byId.loader(applicationTable, Application) }),
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
  applicationIdsOfProject,
  applicationNamed,
  applicationSubject,
  applicationsDueForProbe,
  applicationsOfOrganization,
  applicationsOfProject,
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
export { applicationEnvironmentIdSql, applicationProjectIdSql } from "./application.reads.ts";
export {
  createApplication,
  createDomain,
  domainTakenMessage,
  domainWithHost,
  newAppName,
  setEnvironmentVariables,
  storedSource,
} from "./application.service.ts";
export { applicationTable } from "./application.tables.ts";
// For the organization import (src/modules/transfer): the management mutations' services.
export { createApplicationIn } from "./manage-applications.service.ts";
export { createDatabaseIn } from "./manage-databases.service.ts";
export { addDomain } from "./manage-domains.service.ts";
export { createEnvironment as createEnvironmentIn } from "./manage-environments.service.ts";
export { setEnvironmentVariables as setApplicationVariables } from "./manage-variables.service.ts";
