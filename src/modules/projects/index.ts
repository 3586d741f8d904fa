/** Module manifest: projects and environments (schema/projects.graphql). */

import { defineModule } from "../module.ts";
import { createProjectLoaders } from "./project.loaders.ts";
import { projectResolvers } from "./project.resolvers.ts";
import { projectSqlReads } from "./project.sql-reads.ts";

declare module "../module.ts" {
  interface ModuleLoaders {
    projects: ReturnType<typeof createProjectLoaders>;
  }
}

/** The projects module. */
export const projectsModule = defineModule({
  name: "projects",
  sqlReads: projectSqlReads,
  resolvers: projectResolvers,
  createLoaders: ({ knex, scope }) => createProjectLoaders(knex, scope),
});
