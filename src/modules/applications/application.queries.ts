/**
 * Query builders over this module's tables for other modules: the deployments module
 * reads and writes an application's deploy and health columns, its domains and variables through these, in one
 * statement as before, without naming the tables itself.
 */
import type { Knex } from "knex";

type Db = Knex | Knex.Transaction;

/** A query (not run) on `applications`, optionally aliased (`applicationsTable(db, "a")` → `applications as a`). */
export function applicationsTable(db: Db, alias?: string): Knex.QueryBuilder {
  return db(alias ? `applications as ${alias}` : "applications");
}

/** A query (not run) on `domains`, optionally aliased. */
export function domainsTable(db: Db, alias?: string): Knex.QueryBuilder {
  return db(alias ? `domains as ${alias}` : "domains");
}

/** A query (not run) on `environment_variables`, optionally aliased. */
export function environmentVariablesTable(db: Db, alias?: string): Knex.QueryBuilder {
  return db(alias ? `environment_variables as ${alias}` : "environment_variables");
}
