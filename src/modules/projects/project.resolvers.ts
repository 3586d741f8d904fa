/**
 * Resolvers of the project mutations (`createProject`, `updateProject`, `deleteProject`: schema/organizations.graphql).
 * Every read of projects and environments (schema/projects.graphql) is compiled SQL (project.reads.ts).
 */
import type { Resolvers } from "../../generated/graphql.ts";
import { createProject, deleteProject, updateProject } from "./organization-projects.service.ts";

/** The project mutations. */
export const projectResolvers: Resolvers = {
  Mutation: {
    createProject: (_p, { input }, ctx) => createProject(ctx, input),
    deleteProject: (_p, { id }, ctx) => deleteProject(ctx, id),
    updateProject: (_p, { id, input }, ctx) => updateProject(ctx, id, input),
  },
};
