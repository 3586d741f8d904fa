/** Site import records (table `site_imports`; spec: "Import record", "Import status"). */
import { BaseModel } from "../../db/base-model.ts";

/** Status of an import (spec: Import status table). */
export type ImportStatus = "pending" | "success" | "partial" | "failed";

/** The step an import failed at (spec: Import result `errorStep`), in execution order. */
export type ImportStep =
  | "project_creation"
  | "database_creation"
  | "application_creation"
  | "domain_creation"
  | "deployment";

/** Statuses from which `retry` may start a new run (spec: available actions). */
export const RETRYABLE_STATUSES: readonly ImportStatus[] = ["partial", "failed"];

/**
 * A pending import whose last update is older than this many minutes is considered abandoned (its server
 * stopped mid-run) and may be retried or deleted like a failed one.
 */
export const STALE_PENDING_MINUTES = 10;

/** One import record of an organization. `inputEncrypted` holds the validated request (secrets included). */
export class SiteImport extends BaseModel {
  static override tableName = "site_imports";
  static override idKind = "siteImport" as const;
  declare organizationId: string;
  declare createdByUserId: string | null;
  declare name: string;
  declare status: ImportStatus;
  declare inputEncrypted: string;
  declare projectId: string | null;
  declare databaseId: string | null;
  declare applicationId: string | null;
  declare domainId: string | null;
  declare deploymentId: string | null;
  declare databaseServiceHost: string | null;
  declare errorStep: ImportStep | null;
  declare errorMessage: string | null;
  /** Runs of the stored input: 1, plus one per retry. */
  declare attempts: number;
  declare createdAt: Date;
  declare updatedAt: Date;
  /** End of the last run; null while pending. */
  declare finishedAt: Date | null;
}
