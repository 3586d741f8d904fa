/** Deployments of applications and their log lines. */
import { BaseModel } from "../../db/base-model.ts";
import type { Manifest } from "./deployment.manifests.ts";
import { deploymentTable } from "./deployment.tables.ts";

/** Deployment states: `queued` → `running` → `done` (success) | `error`; `cancelled` when cancelled or superseded. */
export type DeploymentStatus = "queued" | "running" | "done" | "error" | "cancelled";

/** What started a deployment. */
export type DeploymentTrigger = "manual" | "api" | "push" | "import" | "redeploy";

/** One deployment; `status` null only for rows written before the lifecycle existed. */
export class Deployment extends BaseModel {
  static override tableName = deploymentTable.table;
  static override idKind = "deployment" as const;
  static override jsonAttributes = ["manifests"];
  declare applicationId: string;
  declare status: DeploymentStatus | null;
  declare title: string;
  declare description: string | null;
  declare trigger: string;
  declare createdAt: Date;
  declare startedAt: Date | null;
  declare finishedAt: Date | null;
  /** Objects rendered by the deployer (null until it ran). */
  declare manifests: Manifest[] | null;
  declare commitSha: string | null;
  /** Why the deployment ended `error` (or was cancelled), in words. */
  declare errorMessage: string | null;
}

/** One log line of a deployment (`deployment_logs`). */
export interface DeploymentLogLine {
  at: Date;
  level: "info" | "warn" | "error";
  text: string;
}
