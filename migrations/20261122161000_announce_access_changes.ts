/**
 * Announces access changes the services do not see: grants removed by a
 * cascade (a project or application deleted) and memberships removed by a cascade (an organization deleted)
 * NOTIFY topic `access_changed` with the member's `userId` on Skiff's event channel, at commit, like
 * src/shared/access-changes.ts does for the changes made through services. Open graphql-ws connections of that
 * user drop their cached access and close with 4403 (src/server/subscriptions.ts).
 */
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create function skiff_announce_access_changes() returns trigger language plpgsql as $$
    declare
      users text[];
    begin
      if TG_TABLE_NAME = 'members' then
        select array_agg(distinct user_id) into users from old_rows;
      else
        select array_agg(distinct m.user_id) into users from old_rows g join members m on m.id = g.member_id;
      end if;
      perform pg_notify('skiff_events', json_build_object(
        'topic', 'access_changed', 'payload', json_build_object('userId', u))::text)
      from unnest(coalesce(users, '{}')) as u;
      return null;
    end $$;

    create trigger members_announce_access_changes after delete on members
      referencing old table as old_rows for each statement execute function skiff_announce_access_changes();
    create trigger member_grants_announce_access_changes after delete on member_grants
      referencing old table as old_rows for each statement execute function skiff_announce_access_changes();
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    drop trigger if exists member_grants_announce_access_changes on member_grants;
    drop trigger if exists members_announce_access_changes on members;
    drop function if exists skiff_announce_access_changes();
  `);
}
