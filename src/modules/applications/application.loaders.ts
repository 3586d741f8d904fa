/**
 * Per-request loaders for applications, domains, environment variables and databases.
 * Visibility is applied inside: an ungranted or foreign application loads as null / is left out.
 */
import DataLoader from "dataloader";
import type { Knex } from "knex";
import { groupByKeys, jsonKey, orderByKeys, withVisibleParent } from "../../db/loader-utils.ts";
import type { SecretBox } from "../../db/secrets.ts";
import { type AccessScope, canSeeApplication, canSeeProject, visibleApplicationSql } from "../access/index.ts";
import { Database } from "../databases/index.ts";
import { deploymentsEmbed } from "./application.embeds.ts";
import { Application, Domain, EnvironmentVariable } from "./application.model.ts";
import {
  APPLICATION_COLUMNS,
  type ApplicationRow,
  type ApplicationsKey,
  applicationFromRow,
  DOMAIN_COLUMNS,
  DOMAINS_JSON,
  domainsFromRows,
  type RawDomain,
} from "./application.rows.ts";

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

  const applicationsByEnvironment = new DataLoader<ApplicationsKey, Application[], string>(
    async (keys) => {
      const orgs = await scope.memberships();
      const plans = new Map<string, ApplicationsKey[]>();
      for (const key of keys) {
        const plan = `${key.domains}:${key.deployments}`;
        plans.set(plan, [...(plans.get(plan) ?? []), key]);
      }
      const byEnvironment = new Map<string, Application[]>();
      // One statement per distinct look-ahead (normally one per request level).
      await Promise.all(
        [...plans.values()].map(async (group) => {
          const { domains, deployments } = group[0]!;
          const visible = visibleApplicationSql(orgs, "a");
          const result: { rows: ApplicationRow[] } = await knex.raw(
            `select ${APPLICATION_COLUMNS}
              ${domains ? `, ${DOMAINS_JSON} as "domains"` : ""}
              ${deployments !== null ? `, ${deploymentsEmbed().sql("a.id")} as "deployments"` : ""}
             from applications a where a.environment_id = any(?::text[]) and ${visible.sql} order by a.id`,
            [...(deployments !== null ? [deployments] : []), group.map((k) => k.environmentId), ...visible.bindings],
          );
          for (const row of result.rows) {
            const app = applicationFromRow(row, deployments);
            const list = byEnvironment.get(app.environmentId);
            if (list) list.push(app);
            else byEnvironment.set(app.environmentId, [app]);
          }
        }),
      );
      return keys.map((k) => byEnvironment.get(k.environmentId) ?? []);
    },
    { cacheKeyFn: jsonKey },
  );

  const domainsByApplication = new DataLoader<string, Domain[]>(async (appIds) => {
    const result: { rows: RawDomain[] } = await knex.raw(
      `select ${DOMAIN_COLUMNS} from domains x where x.application_id = any(?::text[]) order by x.id`,
      [[...appIds]],
    );
    return groupByKeys(appIds, domainsFromRows(result.rows), (d) => d.applicationId);
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
