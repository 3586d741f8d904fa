/**
 * The descriptors of the deployments module's tables (src/reads/tables.ts): deployments, visible with their
 * application, their log lines, visible with their deployment, and each organization's reconcile status, visible to
 * its owners and admins.
 */
import { can } from "../../auth/access/policy.ts";
import { defineChildTable, defineTable, type SqlVisibility } from "../../reads/index.ts";
import { applicationTable } from "../applications/index.ts";

/** The `deployments` table: `Deployment` rows, visible with their application. */
export const deploymentTable = defineChildTable(
  "Deployment",
  "deployments",
  [
    "id",
    "application_id",
    "status",
    "title",
    "description",
    "trigger",
    "created_at",
    "started_at",
    "finished_at",
    "manifests",
    "commit_sha",
    "error_message",
  ],
  applicationTable,
  "application_id",
);

/**
 * The `deployment_logs` table: `DeploymentLogLine` rows, visible with their deployment (read only inside their
 * deployment's SQL: not a row source of its own).
 */
export const deploymentLogTable = defineChildTable(
  "DeploymentLogLine",
  "deployment_logs",
  ["id", "deployment_id", "at", "level", "text"],
  deploymentTable,
  "deployment_id",
  { foundById: false },
);

/** The condition "reconcile status row `alias` is of an organization where the caller may read it" (SQL). */
function visibleReconcileStatus(sql: SqlVisibility, alias: string): string {
  const ids = [...sql.caller.orgs.values()].filter((access) => can(access, "cluster:read"));
  return `${alias}.id = any(${sql.param(ids.map((access) => access.organizationId))}::text[])`;
}

/**
 * The `reconcile_status` table: `ClusterSync` rows, one per organization (its id the organization's), visible to
 * its owners and admins; read only as `Organization.clusterSync`, not found by id.
 */
export const reconcileStatusTable = defineTable(
  "ClusterSync",
  "reconcile_status",
  ["id", "checked_at", "synced_at", "failing_since", "failures"],
  visibleReconcileStatus,
  { foundById: false },
);
