/**
 * Compiled-read SQL of schema/site-imports.graphql (src/reads/compiler.ts), the only implementation of these reads:
 * the active organization's import records newest first (a member limited by grants sees only records whose
 * project is granted; spec: Site import rule 8), a record by id, its columns and step progress. The resources a
 * record points at are declared by the modules owning them (with their own visibility); `inputConfig` and
 * `databaseType` are decrypted by resolvers from the row.
 */

import {
  type ComputedColumns,
  checkedEnumJson,
  connectionSql,
  JsonSql,
  type ReadTypes,
  rootById,
} from "../../reads/index.ts";
import { decodeCursor } from "../../shared/pagination.ts";
import { parseInput } from "../../shared/validate.ts";
import { IMPORT_STEPS } from "./site-import.model.ts";
import { connectionArgsSchema } from "./site-import.schema.ts";
import { siteImportTable, visibleImportRow } from "./site-import.tables.ts";

/** Query.siteImports/siteImport, SiteImport and its step progress. */
export const siteImportReads: ReadTypes = {
  Query: {
    // Newest first; `first` 1..100 (default 50), `offset` ≥ 0. @throws BAD_USER_INPUT (with fieldErrors).
    siteImports: (field) => {
      const { compiler, args } = field;
      const { first, offset } = parseInput(
        connectionArgsSchema,
        { first: args.first, offset: args.offset },
        "Invalid list arguments",
      );
      const afterId = typeof args.after === "string" && args.after ? decodeCursor(args.after, "siteImport") : null;
      const organizationId = compiler.caller.organizationId;
      const where =
        organizationId && compiler.caller.orgs.has(organizationId)
          ? `p.organization_id = ${compiler.param(organizationId)} and ${visibleImportRow(compiler, "p")}`
          : "false";
      return connectionSql(field, {
        table: siteImportTable.table,
        where,
        first,
        afterId,
        offset,
        descending: true,
        nodeType: "SiteImport",
      });
    },
    siteImport: rootById(siteImportTable),
  },
  SiteImport: {
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
  },
};

/** What of its row each computed field of the module reads (ComputedColumns): the decrypted request. */
export const siteImportComputedColumns: ComputedColumns = {
  SiteImport: { inputConfig: ["input_encrypted"], databaseType: ["database_id", "input_encrypted"] },
};
