/** Module manifest: projects and environments (schema/projects.graphql). */

import type DataLoader from "dataloader";
import { defineModule } from "../module.ts";
import { Environment, Project } from "./project.model.ts";
import { projectReads } from "./project.reads.ts";
import { projectResolvers } from "./project.resolvers.ts";
import { projectRoutes } from "./project.rest.ts";
import { environmentTable, projectTable } from "./project.tables.ts";

declare module "../module.ts" {
  interface ModuleLoaders {
    projects: { byId: DataLoader<string, Project | null>; environmentById: DataLoader<string, Environment | null> };
  }
}

/** The projects module. */
export const projectsModule = defineModule({
  name: "projects",
  tables: ["projects", "environments"],
  reads: projectReads,
  descriptors: [projectTable, environmentTable],
  resolvers: projectResolvers,
  restRoutes: projectRoutes,
  createLoaders: ({ byId }) => ({
    byId: byId.loader(projectTable, Project),
    environmentById: byId.loader(environmentTable, Environment),
  }),
});

// For the organization import: the `createProject` mutation's service.
export { createProject } from "./organization-projects.service.ts";
export { type ExportedProject, exportProjects } from "./project.export.ts";
// The public surface: what other modules may import (they import nothing else of this folder).
export { Environment } from "./project.model.ts";
export {
  createEnvironment,
  createProjectWithProduction,
  deleteEnvironment,
  deleteProject,
  ENVIRONMENT_NAME,
  lockEnvironment,
  lockProjectTree,
  PRODUCTION_ENVIRONMENT,
  projectNamed,
  projectNameTakenMessage,
  renameEnvironment,
} from "./project.service.ts";
export { environmentTable, projectTable } from "./project.tables.ts";
