/** Module manifest: projects and environments (schema/projects.graphql). */

import { defineModule } from "../module.ts";
import { createProjectLoaders } from "./project.loaders.ts";
import { projectResolvers } from "./project.resolvers.ts";
import { projectSqlReads, projectSqlRows } from "./project.sql-reads.ts";

declare module "../module.ts" {
  interface ModuleLoaders {
    projects: ReturnType<typeof createProjectLoaders>;
  }
}

/** The projects module. */
export const projectsModule = defineModule({
  name: "projects",
  tables: ["projects", "environments"],
  sqlReads: projectSqlReads,
  sqlRows: projectSqlRows,
  resolvers: projectResolvers,
  createLoaders: ({ knex, scope }) => createProjectLoaders(knex, scope),
});

// For the organization import: the `createProject` mutation's service.
export { createProject } from "./organization-projects.service.ts";
export { type ExportedProject, exportProjects } from "./project.export.ts";
// The public surface: what other modules may import (they import nothing else of this folder).
export { Environment } from "./project.model.ts";
export { projectOrganization } from "./project.queries.ts";
export {
  createEnvironment,
  createProjectWithProduction,
  deleteEnvironment,
  deleteProject,
  ENVIRONMENT_NAME,
  environmentById,
  lockEnvironment,
  PRODUCTION_ENVIRONMENT,
  projectNamed,
  projectNameTakenMessage,
  renameEnvironment,
} from "./project.service.ts";
