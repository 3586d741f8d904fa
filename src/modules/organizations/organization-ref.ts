/**
 * Organization references as users give them (webhooks' `{org_id}` and `organizationId`, the docs theme): the
 * integer `databaseId` as digits, or the `org_…` TypeID. One parser, one lookup and one SQL form for every module
 * that accepts such a reference.
 */
import type { Knex } from "knex";
import type { ReadCompiler } from "../../reads/index.ts";
import { organizationIdOfDatabaseIdSql } from "./organization.reads.ts";

/**
 * What `ref` names: the integer `databaseId` (digits, at most 2147483647) or the TypeID (anything else). null: digits
 * out of range (no organization has that id).
 */
export function parseOrganizationRef(ref: string): { databaseId: number } | { id: string } | null {
  const numeric = /^[1-9][0-9]{0,9}$/.test(ref) ? Number(ref) : null;
  if (numeric === null) return { id: ref };
  return numeric > 2_147_483_647 ? null : { databaseId: numeric };
}

/** The organization `ref` names, with both its ids, or null when there is none (one named prepared statement). */
export async function findOrganizationByRef(
  knex: Knex,
  ref: string,
): Promise<{ id: string; databaseId: number } | null> {
  const parsed = parseOrganizationRef(ref);
  if (!parsed) return null;
  const byNumber = "databaseId" in parsed;
  // Prepared once per connection (a unique index lookup: its generic plan is the index's): every org-scoped REST
  // call runs it.
  const row = await knex("organizations")
    .where(byNumber ? { database_id: parsed.databaseId } : { id: parsed.id })
    .first("id", "database_id")
    .options({ name: byNumber ? "skiff_organization_by_number" : "skiff_organization_by_id" });
  return row ? { id: row.id, databaseId: row.databaseId } : null;
}

/** SQL of the id (TypeID) of the organization `ref` names, for compiled reads; SQL null when it names none. */
export function organizationRefSql(compiler: ReadCompiler, ref: string): string {
  const parsed = parseOrganizationRef(ref);
  if (!parsed) return "null::text";
  return "id" in parsed
    ? `${compiler.param(parsed.id)}::text`
    : organizationIdOfDatabaseIdSql(compiler, parsed.databaseId);
}
