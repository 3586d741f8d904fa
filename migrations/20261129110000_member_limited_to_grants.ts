/**
 * Whether grants limit a member (`members.limited_to_grants`), kept apart from the grants themselves: a member whose
 * granted projects and applications are all deleted (their grants go with them, by cascade) stays limited and sees
 * nothing, instead of seeing every project as a member who was never limited does. Set by the first grant (a trigger
 * on `member_grants`, so every writer of grants sets it: `grantAccess`, an invitation's pending grants, an
 * organization import), cleared only when an owner or admin revokes the member's last grant (`revokeAccess`).
 * Members with grants now start limited.
 */
import type { Knex } from "knex";

/** Adds the column, sets it for members with grants, and the trigger that sets it on every new grant. */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    alter table members add column limited_to_grants boolean not null default false;
    update members m set limited_to_grants = true where exists (select 1 from member_grants g where g.member_id = m.id);
    create function skiff_member_grants_limit_member() returns trigger language plpgsql as $$
    begin
      update members set limited_to_grants = true where id = new.member_id and not limited_to_grants;
      return null;
    end $$;
    create trigger member_grants_limit_member after insert on member_grants for each row
      execute function skiff_member_grants_limit_member();`);
}

/** Drops the trigger, its function and the column. */
export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    drop trigger if exists member_grants_limit_member on member_grants;
    drop function if exists skiff_member_grants_limit_member();
    alter table members drop column if exists limited_to_grants;`);
}
