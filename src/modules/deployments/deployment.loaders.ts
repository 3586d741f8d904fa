/**
 * Per-request loaders for deployments: newest first, with a per-application limit computed by a
 * window function (one statement for any number of applications), as plain rows grouped with a Map.
 */
import DataLoader from "dataloader";
import type { Knex } from "knex";
import { jsonKey, orderByKeys, withVisibleParent } from "../../db/loader-utils.ts";
import type { Application } from "../applications/index.ts";
import { applicationsTable } from "../applications/index.ts";
import { DEPLOY_SETTINGS_COLUMNS, type DeploySettings, settingsFromRow } from "./deploy-token.ts";
import { Deployment } from "./deployment.model.ts";
import { DEPLOYMENT_COLUMNS, deploymentsFromJson } from "./deployment.rows.ts";

/** The newest `first` deployments of one application. */
export interface DeploymentsKey {
  applicationId: string;
  first: number;
}

/** The deployment loaders of one request. */
export interface DeploymentLoaders {
  byApplication: DataLoader<DeploymentsKey, Deployment[], string>;
  byId: DataLoader<string, Deployment | null>;
  /** Deploy settings per application id, one statement per batch (callers pass visible applications only). */
  settingsByApplication: DataLoader<string, DeploySettings | null>;
}

/**
 * Builds the deployment loaders of one request; `applicationById` (read when a batch runs) applies visibility:
 * a deployment is visible when its application is.
 */
export function createDeploymentLoaders(
  knex: Knex,
  applicationById: () => DataLoader<string, Application | null>,
): DeploymentLoaders {
  const deploymentsByApplication = new DataLoader<DeploymentsKey, Deployment[], string>(
    async (keys) => {
      const max = Math.max(...keys.map((k) => k.first));
      const ids = [...new Set(keys.map((k) => k.applicationId))];
      // Callers reach this loader through visible applications only (Application.deployments).
      const result: { rows: unknown[] } = await knex.raw(
        `select ${DEPLOYMENT_COLUMNS} from (
           select *, row_number() over (partition by application_id order by created_at desc, id desc) as rank
           from deployments where application_id = any(?::text[])) d
         where d.rank <= ? order by d.created_at desc, d.id desc`,
        [ids, max],
      );
      const byApp = new Map<string, Deployment[]>();
      for (const d of deploymentsFromJson(result.rows) as unknown as Deployment[]) {
        const list = byApp.get(d.applicationId);
        if (list) list.push(d);
        else byApp.set(d.applicationId, [d]);
      }
      return keys.map((k) => (byApp.get(k.applicationId) ?? []).slice(0, k.first));
    },
    { cacheKeyFn: jsonKey },
  );

  const deploymentById = new DataLoader<string, Deployment | null>(async (ids) => {
    const rows = await Deployment.query(knex).whereIn("id", ids as string[]);
    const visibleRows = await withVisibleParent(rows, (d) => d.applicationId, applicationById());
    return orderByKeys(ids, visibleRows, (d) => d.id);
  });

  const settingsByApplication = new DataLoader<string, DeploySettings | null>(async (ids) => {
    const rows: Array<Record<string, unknown>> = await applicationsTable(knex)
      .whereIn("id", ids as string[])
      .select(DEPLOY_SETTINGS_COLUMNS);
    const byId = new Map(rows.map((r) => [r.id as string, settingsFromRow(r)]));
    return ids.map((id) => byId.get(id) ?? null);
  });

  return { byApplication: deploymentsByApplication, byId: deploymentById, settingsByApplication };
}
