/**
 * The descriptor of the databases module's table (src/reads/tables.ts): databases, visible when their project is
 * granted (a project seen only through a granted application shows that application, not its databases).
 */

import { visibleServiceSql } from "../../auth/access/policy.ts";
import { defineTable } from "../../reads/index.ts";
import { environmentTable } from "../projects/index.ts";

/**
 * The `databases` table: `Database` rows, visible as services of their project (their own organization and project
 * columns: the access module's `visibleServiceSql`); so is their environment, in that project.
 */
export const databaseTable = defineTable(
  "Database",
  "databases",
  [
    "id",
    "organization_id",
    "project_id",
    "environment_id",
    "type",
    "name",
    "username",
    "password_encrypted",
    "service_host",
    "created_at",
  ],
  (sql, alias) => sql.condition(visibleServiceSql(sql.caller.orgs, `${alias}.organization_id`, `${alias}.project_id`)),
  { shows: { environment_id: environmentTable } },
);
