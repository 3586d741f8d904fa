/** Site import records (table `site_imports`; spec: "Import record", "Import status"). */
import { BaseModel } from "../../db/base-model.ts";
import { siteImportTable } from "./site-import.tables.ts";

/** Status of an import (spec: Import status table). */
export type ImportStatus = "pending" | "success" | "partial" | "failed";

/** The step an import failed at (spec: Import result `errorStep`), in execution order. */
export type ImportStep =
  | "project_creation"
  | "database_creation"
  | "application_creation"
  | "domain_creation"
  | "deployment";

/** The steps of a run, in execution order. */
export const IMPORT_STEPS: readonly ImportStep[] = [
  "project_creation",
  "database_creation",
  "application_creation",
  "domain_creation",
  "deployment",
];

/**
 * Progress of one step in the current run: `pending` (not run yet), `done` (committed; its resource id is on
 * the record), `failed` (the run ended at it), `skipped` (not requested: no database or no domain).
 */
export type ImportStepStatus = "pending" | "done" | "failed" | "skipped";

/** Progress of every step of the current run (the `steps` column). */
export type ImportSteps = Record<ImportStep, ImportStepStatus>;

/** The progress a new run starts with: every step pending, database and domain skipped when not requested. */
export function initialSteps(input: { database?: unknown; domain?: unknown }): ImportSteps {
  return {
    project_creation: "pending",
    database_creation: input.database ? "pending" : "skipped",
    application_creation: "pending",
    domain_creation: input.domain ? "pending" : "skipped",
    deployment: "pending",
  };
}

/** Statuses from which `retry` may start a new run (spec: available actions). */
export const RETRYABLE_STATUSES: readonly ImportStatus[] = ["partial", "failed"];

/** One import record of an organization. `inputEncrypted` holds the validated request (secrets included). */
export class SiteImport extends BaseModel {
  static override tableName = siteImportTable.table;
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
  /** Progress of the current (or last) run, per step. */
  declare steps: ImportSteps;
  /** Application name generated for the run (`<name>-<random>`), kept so a resumed run uses the same names. */
  declare appName: string | null;
}
