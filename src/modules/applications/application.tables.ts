/**
 * The descriptors of the applications module's tables (src/reads/tables.ts): applications, visible to the members of
 * their organization (a member limited by grants: those of its granted projects and its granted applications), and
 * their domains and environment variables, visible with their application.
 */

import { visibleApplicationSql } from "../../auth/access/policy.ts";
import { defineChildTable, defineTable, type SqlVisibility } from "../../reads/index.ts";
import { environmentTable, projectTable } from "../projects/index.ts";

/** The condition "application row `alias` is visible to the caller" (SQL). */
export function visibleApplicationRow(sql: SqlVisibility, alias: string): string {
  return sql.condition(visibleApplicationSql(sql.caller.orgs, alias));
}

/**
 * The `applications` table: `Application` rows. Whoever sees an application sees its project and environment (a
 * grant on an application shows its project: `applicationProjectIds`; an application lives in its project's
 * environment).
 */
export const applicationTable = defineTable(
  "Application",
  "applications",
  [
    "id",
    "organization_id",
    "project_id",
    "environment_id",
    "name",
    "app_name",
    "source_type",
    "source",
    "build_type",
    "port",
    "application_status",
    "created_at",
    "updated_at",
    "auto_deploy",
    "branch_filter",
    "watch_paths",
    "health_path",
    "health",
    "health_failures",
    "health_checked_at",
    "deploy_token_hash",
    "deploy_token_encrypted",
    "webhook_secret_encrypted",
    "require_signature",
    "needs_deployment",
  ],
  visibleApplicationRow,
  {
    shows: { project_id: projectTable, environment_id: environmentTable },
  },
);

/** The `domains` table: `Domain` rows, visible with their application. */
export const domainTable = defineChildTable(
  "Domain",
  "domains",
  ["id", "organization_id", "application_id", "host", "port", "https", "created_at"],
  applicationTable,
  "application_id",
);

/**
 * The `environment_variables` table: `EnvironmentVariable` rows, visible with their application (read only inside
 * their application's SQL: not a row source of its own).
 */
export const environmentVariableTable = defineChildTable(
  "EnvironmentVariable",
  "environment_variables",
  ["id", "application_id", "key", "value_encrypted", "created_at"],
  applicationTable,
  "application_id",
  { foundById: false },
);
