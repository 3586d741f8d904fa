/** Deployments of applications. */
import { BaseModel } from "../../db/base-model.ts";

/** One deployment; `status` null, `queued`, `running`, `done` or `error`. */
export class Deployment extends BaseModel {
  static override tableName = "deployments";
  static override idKind = "deployment" as const;
  declare applicationId: string;
  declare status: string | null;
  declare title: string;
  declare description: string | null;
  declare trigger: string;
  declare createdAt: Date;
  declare startedAt: Date | null;
  declare finishedAt: Date | null;
}
