/**
 * Query builders over this module's tables for other modules: e.g. an organization's
 * integer id for a webhook envelope, a user's reference for an event, a session's active organization. Each is one
 * statement as before; the callers never name the tables themselves.
 */
import type { Knex } from "knex";

type Db = Knex | Knex.Transaction;

/** A query (not run) on `organizations`, optionally aliased (`organizationsTable(db, "o")` → `organizations as o`). */
export function organizationsTable(db: Db, alias?: string): Knex.QueryBuilder {
  return db(alias ? `organizations as ${alias}` : "organizations");
}

/** A query (not run) on `users` (better-auth's table; the organizations module reads and owns it among modules). */
export function usersTable(db: Db, alias?: string): Knex.QueryBuilder {
  return db(alias ? `users as ${alias}` : "users");
}

/** A query (not run) on `sessions` (better-auth's table: `active_organization_id` is ours to set). */
export function sessionsTable(db: Db, alias?: string): Knex.QueryBuilder {
  return db(alias ? `sessions as ${alias}` : "sessions");
}

/** A query (not run) on `notification_channels`, optionally aliased. */
export function notificationChannelsTable(db: Db, alias?: string): Knex.QueryBuilder {
  return db(alias ? `notification_channels as ${alias}` : "notification_channels");
}
