/**
 * Compiled-read SQL of schema/imports.graphql (src/reads/compiler.ts), the only implementation of these reads:
 * the active organization's import records newest first (a member limited by grants sees only records whose
 * project is granted; spec: Site import rule 8), a record by id, its columns and step progress. The resources a
 * record points at are declared by the modules owning them (with their own visibility); `inputConfig` and
 * `databaseType` are decrypted by resolvers from the row.
 */

import { visibleProjectSql } from "../../auth/access/policy.ts";
import {
  checkedEnum,
  checkedEnumJson,
  column,
  connectionSql,
  JsonSql,
  rootById,
  type SqlComputedColumns,
  type SqlReadCompiler,
  type SqlReadRows,
  type SqlReadTypes,
  timestamp,
} from "../../reads/index.ts";
import { decodeCursor } from "../../shared/pagination.ts";
import { parseInput } from "../../shared/validate.ts";
import { IMPORT_STEPS } from "./site-import.model.ts";
import { connectionArgsSchema } from "./site-import.schema.ts";

/** The condition "import record `alias` is visible to the caller": its organization's, its project granted. */
function visibleImportRow(compiler: SqlReadCompiler, alias: string): string {
  // A project-limited member sees records whose project it sees; a record without a project stays hidden from it.
  return compiler.condition(visibleProjectSql(compiler.caller.orgs, `${alias}.organization_id`, `${alias}.project_id`));
}

/** Where import records are found by id, with the caller's visibility. */
export const siteImportSqlRows: SqlReadRows = {
  SiteImport: { table: "site_imports", visible: visibleImportRow },
};

/** Query.siteImports/siteImport, SiteImport and its step progress. */
export const siteImportSqlReads: SqlReadTypes = {
  Query: {
    // Newest first; `first` 1..100 (default 50), `offset` ≥ 0. @throws BAD_USER_INPUT (with fieldErrors).
    siteImports: (field) => {
      const { compiler, args } = field;
      const { first, offset } = parseInput(
        connectionArgsSchema,
        { first: args.first, offset: args.offset },
        "Invalid list arguments",
      );
      const afterId = typeof args.after === "string" && args.after ? decodeCursor(args.after) : null;
      const organizationId = compiler.caller.organizationId;
      const where =
        organizationId && compiler.caller.orgs.has(organizationId)
          ? `p.organization_id = ${compiler.param(organizationId)} and ${visibleImportRow(compiler, "p")}`
          : "false";
      return connectionSql(field, {
        table: "site_imports",
        where,
        first,
        afterId,
        offset,
        descending: true,
        nodeType: "SiteImport",
      });
    },
    siteImport: rootById("SiteImport", siteImportSqlRows.SiteImport!),
  },
  SiteImport: {
    id: column("id"),
    organizationId: column("organization_id"),
    name: column("name"),
    status: checkedEnum("status"),
    projectId: column("project_id"),
    databaseId: column("database_id"),
    databaseServiceHost: column("database_service_host"),
    applicationId: column("application_id"),
    domainId: column("domain_id"),
    deploymentId: column("deployment_id"),
    // The five steps in execution order, each `pending` until the run records it: one array built in place (no
    // subquery, aggregate or sort per import). The step names are this module's constants (snake_case), never input.
    steps: ({ compiler, alias, nodes, returnType }) => {
      const items = IMPORT_STEPS.map((step) => {
        if (!/^[a-z_]+$/.test(step)) throw new Error(`Unexpected step name ${step}`);
        return compiler.objectWith(returnType, alias, nodes, {
          step: () => JsonSql.constant(JSON.stringify(step)),
          // A CHECK constraint limits `steps` to these statuses (migration 20261126000000).
          status: () => checkedEnumJson(`coalesce(${alias}.steps ->> '${step}', 'pending')`),
        });
      });
      return items.every((item) => item !== null) ? compiler.array(items) : null;
    },
    errorStep: checkedEnum("error_step"),
    errorMessage: column("error_message"),
    attempts: column("attempts"),
    createdAt: timestamp("created_at"),
    updatedAt: timestamp("updated_at"),
    finishedAt: timestamp("finished_at"),
  },
};

/** What of its row each computed field of the module reads (SqlComputedColumns): the decrypted request. */
export const siteImportComputedColumns: SqlComputedColumns = {
  SiteImport: { inputConfig: ["input_encrypted"], databaseType: ["database_id", "input_encrypted"] },
};
