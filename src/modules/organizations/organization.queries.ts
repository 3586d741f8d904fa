/**
 * Named reads and writes of this module's tables for other modules: an organization's lock, integer id or
 * summary; a user found by id or address; a session's active organization; an organization's e-mail channels.
 * Each is one statement on the caller's `db` (a transaction's locks stay in it); none checks access (the caller did).
 */
import type { Knex } from "knex";
import { ownerIdsOf } from "../access/index.ts";

type Db = Knex | Knex.Transaction;

/** Whether organization `id` exists. */
export async function organizationExists(db: Db, id: string): Promise<boolean> {
  return (await db("organizations").where({ id }).first("id")) !== undefined;
}

/**
 * Locks organization `id` in the caller's transaction, serialising that organization's creations: `update` (the
 * default) or `no key update` (other transactions may still insert rows referring to it).
 * @returns its `{ id, name }`, or undefined when it does not exist.
 */
export async function lockOrganization(
  trx: Db,
  id: string,
  strength: "update" | "no key update" = "update",
): Promise<{ id: string; name: string } | undefined> {
  const q = trx("organizations").where({ id });
  return (strength === "update" ? q.forUpdate() : q.forNoKeyUpdate()).first("id", "name");
}

/** The integer id (`databaseId`, the webhook envelope's `org_id`) of organization `id`, or null when none. */
export async function organizationNumber(db: Db, id: string): Promise<number | null> {
  const row = await db("organizations").where({ id }).first("database_id");
  return row ? (row.databaseId as number) : null;
}

/** `{ id, name, slug }` of organization `id`, or undefined. */
export async function organizationSummary(
  db: Db,
  id: string,
): Promise<{ id: string; name: string; slug: string | null } | undefined> {
  return db("organizations").where({ id }).first("id", "name", "slug");
}

/**
 * SQL (not run) of every organization's `id` and `database_id` as the derived table `alias`, to join on
 * (`.join(organizationNumbers(db, "o"), "o.id", …)`): the integer id beside another module's rows in one statement.
 * With `planFeature`, only the organizations whose plan has that feature (e.g. `webhooks`), so the join also drops
 * the rows of the others. Raw SQL, so it cannot be turned into a write.
 */
export function organizationNumbers(db: Db, alias: string, planFeature?: string): Knex.Raw {
  if (planFeature === undefined) return db.raw("(select id, database_id from organizations) as ??", [alias]);
  return db.raw(
    `(select o.id, o.database_id from organizations o join plans p on p.id = o.plan_id
       where ? = any(p.features)) as ??`,
    [planFeature, alias],
  );
}

/** `{ id, email, name }` of user `id`, or undefined. */
export async function userById(
  db: Db,
  id: string,
): Promise<{ id: string; email: string; name: string | null } | undefined> {
  return db("users").where({ id }).first("id", "email", "name");
}

/** `{ id, email }` of each user of `ids` that exists. */
export async function usersByIds(db: Db, ids: string[]): Promise<Array<{ id: string; email: string }>> {
  return db("users").whereIn("id", ids).select("id", "email");
}

/**
 * The account with address `email` (compared lowercased: pass it lowercased), or undefined.
 * @returns `{ id, verified }` (`verified`: the address was confirmed).
 */
export async function findUserByEmail(db: Db, email: string): Promise<{ id: string; verified: boolean } | undefined> {
  return db("users").whereRaw("lower(email) = ?", [email]).first("id", "email_verified as verified");
}

/**
 * SQL (not run) selecting the ids of the accounts with address `email` (lowercased), to filter other rows on
 * (`whereIn("user_id", userIdsWithEmail(db, email))`). Raw SQL, so it cannot be turned into a write.
 */
export function userIdsWithEmail(db: Db, email: string): Knex.Raw {
  return db.raw("select id from users where lower(email) = ?", [email]);
}

/** Deletes account `id` (its sessions and accounts go with it by foreign key). */
export async function deleteUser(db: Db, id: string): Promise<void> {
  await db("users").where({ id }).delete();
}

/** Sets the active organization of session `sessionId`. */
export async function setActiveOrganization(db: Db, sessionId: string, organizationId: string): Promise<void> {
  await db("sessions").where({ id: sessionId }).update({ active_organization_id: organizationId });
}

/**
 * Where organization `organizationId`'s notices go: the addresses of its e-mail notification channels, or, when it
 * has none, its owners' addresses (a notice nobody receives is no notice).
 */
export async function noticeRecipients(db: Db, organizationId: string): Promise<string[]> {
  const channels = (await db("notification_channels")
    .where({ organization_id: organizationId, type: "email" })
    .pluck("target")) as string[];
  if (channels.length > 0) return channels;
  const owners = await ownerIdsOf(db, organizationId);
  return owners.length === 0 ? [] : ((await db("users").whereIn("id", owners).pluck("email")) as string[]);
}
