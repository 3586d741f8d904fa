/**
 * Query builders over this module's table for other modules: the deployments module
 * reads an environment's databases through this, without naming the table itself.
 */
import type { Knex } from "knex";

/** A query (not run) on `databases`, optionally aliased (`databasesTable(db, "d")` → `databases as d`). */
export function databasesTable(db: Knex | Knex.Transaction, alias?: string): Knex.QueryBuilder {
  return db(alias ? `databases as ${alias}` : "databases");
}
