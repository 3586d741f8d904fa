/**
 * The descriptors of the projects module's tables (src/reads/tables.ts): projects, visible to the members of their
 * organization (a member limited by grants: its granted projects and those of its granted applications), and their
 * environments, visible with their project.
 */

import { visibleProjectSql } from "../../auth/access/policy.ts";
import { defineChildTable, defineTable, type SqlVisibility } from "../../reads/index.ts";
import { organizationTable } from "../organizations/index.ts";

/** The condition "project row `alias` is visible to the caller" (SQL). */
export function visibleProjectRow(sql: SqlVisibility, alias: string): string {
  return sql.condition(visibleProjectSql(sql.caller.orgs, `${alias}.organization_id`, `${alias}.id`));
}

/** The `projects` table: `Project` rows. Whoever sees a project is a member of its organization. */
export const projectTable = defineTable(
  "Project",
  "projects",
  ["id", "organization_id", "name", "description", "created_at", "updated_at"],
  visibleProjectRow,
  {
    shows: { organization_id: organizationTable },
  },
);

/** The `environments` table: `Environment` rows, visible with their project. */
export const environmentTable = defineChildTable(
  "Environment",
  "environments",
  ["id", "project_id", "name", "created_at"],
  projectTable,
  "project_id",
);
