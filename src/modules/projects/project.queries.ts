/**
 * Query builders over this module's tables for other modules: e.g. the payments module
 * reads the project a gateway service is created in, without naming the table.
 */
import type { Knex } from "knex";

/** A query (not run) on `projects`, optionally aliased (`projectsTable(db, "p")` → `projects as p`). */
export function projectsTable(db: Knex | Knex.Transaction, alias?: string): Knex.QueryBuilder {
  return db(alias ? `projects as ${alias}` : "projects");
}
