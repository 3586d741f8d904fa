/**
 * Named reads and writes of this module's tables for other modules: the memberships the account events and
 * invitations read, and the write of a grant, one statement each on the caller's `db`.
 */
import type { Knex } from "knex";
import { newId } from "../../db/ids.ts";
import { runAsIs, type WriteRunner } from "../../shared/write-runner.ts";

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

/**
 * Writes the grant of `target` (exactly one of a project and an application) to member `memberId` unless the member
 * holds it already: of concurrent writes of one grant, one row is made (a unique index per kind of target). The
 * statement is run by `run`. @returns whether this call made it.
 */
export async function insertGrantOnce(
  db: Db,
  memberId: string,
  target: { projectId: string | null; applicationId: string | null },
  run: WriteRunner = runAsIs,
): Promise<boolean> {
  const conflict = target.projectId
    ? "(member_id, project_id) where project_id is not null"
    : "(member_id, application_id) where application_id is not null";
  const made = await run(
    db("member_grants")
      .insert({
        id: newId("grant"),
        member_id: memberId,
        project_id: target.projectId,
        application_id: target.applicationId,
      })
      .onConflict(db.raw(conflict))
      .ignore()
      .returning("id"),
  );
  return made.length > 0;
}
