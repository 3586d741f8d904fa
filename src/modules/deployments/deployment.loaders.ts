/**
 * Per-request loaders for deployments: newest first, with a per-application limit computed by a
 * window function (one statement for any number of applications).
 */
import DataLoader from "dataloader";
import type { Knex } from "knex";
import { groupByKeys, jsonKey, orderByKeys, withVisibleParent } from "../../db/loader-utils.ts";
import type { Application } from "../applications/application.model.ts";
import { Deployment } from "./deployment.model.ts";

/** The newest `first` deployments of one application. */
export interface DeploymentsKey {
  applicationId: string;
  first: number;
}

/** The deployment loaders of one request. */
export interface DeploymentLoaders {
  byApplication: DataLoader<DeploymentsKey, Deployment[], string>;
  byId: DataLoader<string, Deployment | null>;
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
      const ranked = knex("deployments")
        .select(
          "*",
          knex.raw("row_number() over (partition by application_id order by created_at desc, id desc) as rank"),
        )
        .whereIn("application_id", ids);
      const rows: Array<Deployment & { rank: number }> = await knex
        .select("*")
        .from(ranked.as("d"))
        .where("rank", "<=", max)
        .orderBy([
          { column: "created_at", order: "desc" },
          { column: "id", order: "desc" },
        ]);
      const models = rows.map((r) => Deployment.fromDatabaseJson(r as object) as Deployment & { rank: number });
      const byApp = groupByKeys(ids, models, (d) => d.applicationId);
      return keys.map((k) => (byApp[ids.indexOf(k.applicationId)] ?? []).filter((d) => d.rank <= k.first));
    },
    { cacheKeyFn: jsonKey },
  );

  const deploymentById = new DataLoader<string, Deployment | null>(async (ids) => {
    const rows = await Deployment.query(knex).whereIn("id", ids as string[]);
    const visibleRows = await withVisibleParent(rows, (d) => d.applicationId, applicationById());
    return orderByKeys(ids, visibleRows, (d) => d.id);
  });

  return { byApplication: deploymentsByApplication, byId: deploymentById };
}
