/**
 * The descriptor of the docs module's themes (src/reads/tables.ts): one theme per organization, visible to that
 * organization's owners and admins (`docs:manage`).
 */
import { can } from "../../auth/access/policy.ts";
import { defineTable, type SqlVisibility } from "../../reads/index.ts";
import { databaseIdOfOrganizationSql } from "../organizations/index.ts";

/** Theme rows as the reads see them: the row's columns, `id` (its organization's id) and `database_id` (SQL, to alias). */
const THEME_ROWS = `(select dt.*, dt.organization_id as id, ${databaseIdOfOrganizationSql("dt.organization_id")} as database_id
    from docs_themes dt)`;

/** The organizations whose themes the caller manages (owners and admins: `docs:manage`). */
export function managedOrganizations(sql: SqlVisibility): string[] {
  return [...sql.caller.orgs.values()]
    .filter((access) => can(access, "docs:manage"))
    .map((access) => access.organizationId);
}

/** The `docs_themes` rows (by their organization's id): `DocsTheme`. */
export const docsThemeTable = defineTable(
  "DocsTheme",
  THEME_ROWS,
  [
    "organization_id",
    "site_name",
    "logo_url",
    "favicon_url",
    "colors_light",
    "colors_dark",
    "footer_text",
    "custom_css",
    "docs_hostname",
    "docs_synced_at",
    "docs_dns",
    "docs_conflict",
    "created_at",
    "updated_at",
    "id",
    "database_id",
  ],
  (sql, alias) => `${alias}.organization_id = any(${sql.param(managedOrganizations(sql))}::text[])`,
);
