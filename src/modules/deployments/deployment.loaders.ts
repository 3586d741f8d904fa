/**
 * Per-request loader of deployments by id for services (cancel, redeploy, live updates check their deployment
 * with it). A deployment is visible when its application is (`applicationById`, read when a batch runs). GraphQL
 * reads of deployments are compiled SQL (deployment.sql-reads.ts).
 */
import DataLoader from "dataloader";
import type { Knex } from "knex";
import { orderByKeys, withVisibleParent } from "../../db/loader-utils.ts";
import type { Application } from "../applications/index.ts";
import { Deployment } from "./deployment.model.ts";

/** The deployment loaders of one request. */
export interface DeploymentLoaders {
  byId: DataLoader<string, Deployment | null>;
}

/** Builds the deployment loaders of one request. */
export function createDeploymentLoaders(
  knex: Knex,
  applicationById: () => DataLoader<string, Application | null>,
): DeploymentLoaders {
  const deploymentById = new DataLoader<string, Deployment | null>(async (ids) => {
    const rows = await Deployment.query(knex).whereIn("id", ids as string[]);
    const visibleRows = await withVisibleParent(rows, (d) => d.applicationId, applicationById());
    return orderByKeys(ids, visibleRows, (d) => d.id);
  });

  return { byId: deploymentById };
}
