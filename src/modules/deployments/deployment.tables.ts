/**
 * The descriptors of the deployments module's tables (src/reads/tables.ts): deployments, visible with their
 * application, and their log lines, visible with their deployment.
 */
import { defineChildTable } from "../../reads/index.ts";
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
