/**
 * Per-request loaders for applications, domains, environment variables and databases.
 * Visibility is applied inside: an ungranted or foreign application loads as null / is left out.
 */
import DataLoader from "dataloader";
import type { Knex } from "knex";
import { groupByKeys, orderByKeys, withVisibleParent } from "../../db/loader-utils.ts";
import type { SecretBox } from "../../db/secrets.ts";
import { type AccessScope, canSeeApplication, canSeeProject } from "../access/access-scope.ts";
import { Database } from "../databases/database.model.ts";
import { Application, Domain, EnvironmentVariable } from "./application.model.ts";

/** A decrypted environment variable. */
export interface EnvVarValue {
  key: string;
  value: string;
}

/** Builds the application-side loaders of one request. */
export function createApplicationLoaders(knex: Knex, scope: AccessScope, secrets: SecretBox) {
  /** Filters rows carrying organizationId/projectId down to those the caller may see. */
  async function visible<T extends { organizationId: string; projectId: string }>(
    rows: T[],
    check: (access: NonNullable<Awaited<ReturnType<AccessScope["forOrg"]>>>, row: T) => boolean,
  ): Promise<T[]> {
    const orgs = await scope.memberships();
    return rows.filter((r) => {
      const access = orgs.get(r.organizationId);
      return access !== undefined && check(access, r);
    });
  }

  const applicationById = new DataLoader<string, Application | null>(async (ids) => {
    const rows = await Application.query(knex).whereIn("id", ids as string[]);
    return orderByKeys(ids, await visible(rows, canSeeApplication), (a) => a.id);
  });

  const applicationsByEnvironment = new DataLoader<string, Application[]>(async (envIds) => {
    const rows = await Application.query(knex)
      .whereIn("environmentId", envIds as string[])
      .orderBy("id");
    return groupByKeys(envIds, await visible(rows, canSeeApplication), (a) => a.environmentId);
  });

  const domainsByApplication = new DataLoader<string, Domain[]>(async (appIds) => {
    const rows = await Domain.query(knex)
      .whereIn("applicationId", appIds as string[])
      .orderBy("id");
    return groupByKeys(appIds, rows, (d) => d.applicationId);
  });

  const domainById = new DataLoader<string, Domain | null>(async (ids) => {
    const rows = await Domain.query(knex).whereIn("id", ids as string[]);
    const visibleRows = await withVisibleParent(rows, (d) => d.applicationId, applicationById);
    return orderByKeys(ids, visibleRows, (d) => d.id);
  });

  const envVarsByApplication = new DataLoader<string, EnvVarValue[]>(async (appIds) => {
    const rows = await EnvironmentVariable.query(knex)
      .whereIn("applicationId", appIds as string[])
      .orderBy("key");
    return groupByKeys(appIds, rows, (v) => v.applicationId).map((vars) =>
      vars.map((v) => ({ key: v.key, value: secrets.decrypt(v.valueEncrypted) })),
    );
  });

  const databasesByEnvironment = new DataLoader<string, Database[]>(async (envIds) => {
    const rows = await Database.query(knex)
      .whereIn("environmentId", envIds as string[])
      .orderBy("id");
    return groupByKeys(envIds, rows, (d) => d.environmentId);
  });

  const databaseById = new DataLoader<string, Database | null>(async (ids) => {
    const rows = await Database.query(knex).whereIn("id", ids as string[]);
    return orderByKeys(ids, await visible(rows, (access, d) => canSeeProject(access, d.projectId)), (d) => d.id);
  });

  return {
    byId: applicationById,
    byEnvironment: applicationsByEnvironment,
    domainsByApplication,
    domainById,
    envVarsByApplication,
    databasesByEnvironment,
    databaseById,
  };
}
