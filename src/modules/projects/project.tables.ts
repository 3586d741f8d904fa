/**
 * The descriptors of the projects module's tables (src/reads/tables.ts): projects, visible to the members of their
 * organization (a member limited by grants: its granted projects and those of its granted applications), and their
 * environments, visible with their project (for a limited member: of a granted project, or holding a granted
 * application).
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

/**
 * The condition a member limited by grants also meets to see environment row `alias` of a project it sees (SQL; empty
 * when no organization of the caller limits it): its organization does not limit the caller, or the project is
 * granted, or the environment holds a granted application — a project seen only as the container of granted
 * applications shows their environments, not its others (spec: "a member sees only the projects and services granted
 * to them"). Ids are unique across organizations, so one organization's grants never admit another's rows.
 */
function grantedEnvironment(sql: SqlVisibility, alias: string): string {
  const all = [...sql.caller.orgs.values()];
  const limited = all.filter((access) => access.grants !== null);
  if (limited.length === 0) return "";
  const projectIds = limited.flatMap((access) => [...access.grants!.projectIds]);
  const environmentIds = limited.flatMap((access) => [...access.grants!.applicationEnvironmentIds]);
  const parts = [
    `${alias}.project_id = any(${sql.param(projectIds)}::text[])`,
    `${alias}.id = any(${sql.param(environmentIds)}::text[])`,
  ];
  const unlimited = all.filter((access) => access.grants === null).map((access) => access.organizationId);
  if (unlimited.length > 0) {
    const p = sql.alias();
    parts.push(
      `exists (select 1 from projects ${p} where ${p}.id = ${alias}.project_id and ${p}.organization_id = any(${sql.param(unlimited)}::text[]))`,
    );
  }
  return `(${parts.join(" or ")})`;
}

/**
 * The `environments` table: `Environment` rows, visible with their project — for a member limited by grants, those
 * of a granted project and those holding a granted application ({@link grantedEnvironment}).
 */
export const environmentTable = defineChildTable(
  "Environment",
  "environments",
  ["id", "project_id", "name", "created_at"],
  projectTable,
  "project_id",
  { narrow: grantedEnvironment },
);
