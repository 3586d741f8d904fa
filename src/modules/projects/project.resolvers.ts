/**
 * Resolvers of schema/projects.graphql: the mutations. Every read of projects and environments is compiled SQL
 * (project.reads.ts).
 */
import type { Resolvers } from "../../generated/graphql.ts";
import { createProject, deleteProject } from "./organization-projects.service.ts";

/** The project mutations. */
export const projectResolvers: Resolvers = {
  Mutation: {
    createProject: (_p, { input }, ctx) => createProject(ctx, input),
    deleteProject: (_p, { id }, ctx) => deleteProject(ctx, id),
  },
};
