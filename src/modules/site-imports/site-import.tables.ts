/**
 * The descriptor of the site import module's records (src/reads/tables.ts): an organization's import records,
 * visible to its members; a member limited by grants sees the records whose project or application is granted to it
 * (a record without either stays hidden from it). Spec: Site import rule 8 (another organization's record is NOT_FOUND).
 */

import { visibleServiceSql } from "../../auth/access/policy.ts";
import { defineTable, type SqlVisibility } from "../../reads/index.ts";
import { organizationTable } from "../organizations/index.ts";
import { projectTable } from "../projects/index.ts";

/** The condition "import record `alias` is visible to the caller" (SQL). */
export function visibleImportRow(sql: SqlVisibility, alias: string): string {
  return sql.condition(
    visibleServiceSql(sql.caller.orgs, `${alias}.organization_id`, `${alias}.project_id`, `${alias}.application_id`),
  );
}

/**
 * The `site_imports` table: `SiteImport` rows. Whoever sees a record sees its project (granted, or the container of
 * its granted application) and is a member of its organization.
 */
export const siteImportTable = defineTable(
  "SiteImport",
  "site_imports",
  [
    "id",
    "organization_id",
    "created_by_user_id",
    "name",
    "status",
    "input_encrypted",
    "project_id",
    "database_id",
    "application_id",
    "domain_id",
    "deployment_id",
    "database_service_host",
    "error_step",
    "error_message",
    "attempts",
    "created_at",
    "updated_at",
    "finished_at",
    "steps",
    "app_name",
  ],
  visibleImportRow,
  {
    shows: { project_id: projectTable, organization_id: organizationTable },
  },
);
