/**
 * Named reads of this module's tables for other modules: the memberships the account events and invitations read,
 * one statement each on the caller's `db`.
 */
import type { Knex } from "knex";

type Db = Knex | Knex.Transaction;

/** The users who own organization `organizationId`. */
export async function ownerIdsOf(db: Db, organizationId: string): Promise<string[]> {
  return db("members").where({ organization_id: organizationId, role: "owner" }).pluck("user_id");
}

/** The organizations user `userId` is a member of. */
export async function organizationIdsOfUser(db: Db, userId: string): Promise<string[]> {
  return db("members").where({ user_id: userId }).pluck("organization_id");
}

/**
 * The id of a membership in organization `organizationId` of one of the users `userIds` (SQL, not run,
 * selecting user ids), or undefined when none of them is a member.
 */
export async function memberAmong(db: Db, organizationId: string, userIds: Knex.Raw): Promise<string | undefined> {
  const row = await db("members")
    .where({ organization_id: organizationId })
    .whereRaw("user_id in (?)", [userIds])
    .first("id");
  return row?.id;
}
