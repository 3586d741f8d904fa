/**
 * Resolvers of schema/applications.graphql for what is not a column — an environment variable's value, stored
 * encrypted — and the management mutations, each a call of its service (manage-*.service.ts). Every other read of
 * applications, domains and databases is compiled SQL (application.reads.ts); objects the mutations return are
 * re-read by id with the caller's selection.
 */
import type { Resolvers } from "../../generated/graphql.ts";
import { createApplicationIn, deleteApplication, updateApplication } from "./manage-applications.service.ts";
import { createDatabaseIn, deleteDatabase, rotateDatabasePassword } from "./manage-databases.service.ts";
import { addDomain, removeDomain, updateDomain } from "./manage-domains.service.ts";
import { createEnvironment, deleteEnvironment, renameEnvironment } from "./manage-environments.service.ts";
import {
  setEnvironmentVariable,
  setEnvironmentVariables,
  unsetEnvironmentVariable,
} from "./manage-variables.service.ts";

/** EnvironmentVariable.value and the management mutations. */
export const applicationResolvers: Resolvers = {
  EnvironmentVariable: {
    value: (v, _x, ctx) => ctx.services.secrets.decrypt((v as unknown as { valueEncrypted: string }).valueEncrypted),
  },
  Mutation: {
    createApplication: (_p, { input }, ctx) => createApplicationIn(ctx, input),
    updateApplication: (_p, { id, input }, ctx) => updateApplication(ctx, id, input),
    deleteApplication: (_p, { id }, ctx) => deleteApplication(ctx, id),
    setEnvironmentVariable: (_p, { applicationId, key, value, deploy }, ctx) =>
      setEnvironmentVariable(ctx, applicationId, { key, value }, deploy ?? false),
    setEnvironmentVariables: (_p, { applicationId, variables, dotenv, deploy }, ctx) =>
      setEnvironmentVariables(ctx, applicationId, { variables, dotenv }, deploy ?? false),
    unsetEnvironmentVariable: (_p, { applicationId, key, deploy }, ctx) =>
      unsetEnvironmentVariable(ctx, applicationId, key, deploy ?? false),
    createDatabase: (_p, { input }, ctx) => createDatabaseIn(ctx, input),
    rotateDatabasePassword: (_p, { id, password }, ctx) => rotateDatabasePassword(ctx, id, password),
    deleteDatabase: (_p, { id }, ctx) => deleteDatabase(ctx, id),
    addDomain: (_p, { input }, ctx) => addDomain(ctx, input),
    updateDomain: (_p, { id, input }, ctx) => updateDomain(ctx, id, input),
    removeDomain: (_p, { applicationId, host }, ctx) => removeDomain(ctx, applicationId, host),
    createEnvironment: (_p, { projectId, name }, ctx) => createEnvironment(ctx, projectId, name),
    renameEnvironment: (_p, { id, name }, ctx) => renameEnvironment(ctx, id, name),
    deleteEnvironment: (_p, { id }, ctx) => deleteEnvironment(ctx, id),
  },
};
