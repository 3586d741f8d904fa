/**
 * Query builders over this module's tables for other modules: memberships read by the
 * account events and invitations, in one statement as before, without naming the table.
 */
import type { Knex } from "knex";

/** A query (not run) on `members`, optionally aliased (`membersTable(db, "m")` → `members as m`). */
export function membersTable(db: Knex | Knex.Transaction, alias?: string): Knex.QueryBuilder {
  return db(alias ? `members as ${alias}` : "members");
}
