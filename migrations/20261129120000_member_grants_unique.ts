/**
 * A member holds a grant on a project or an application at most once (`grantAccess`: "granting something already
 * granted returns that grant"): two partial unique indexes, so that concurrent grants of one target make one row,
 * and revoking the grant a caller was given lifts it. Repeated grants already stored keep their oldest row.
 */
import type { Knex } from "knex";

/** Deletes the repeats, then adds the two indexes. */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    delete from member_grants g using (
      select id, row_number() over (partition by member_id, project_id, application_id order by created_at, id) as n
        from member_grants) r
     where r.id = g.id and r.n > 1;
    create unique index member_grants_member_project_unique on member_grants (member_id, project_id)
      where project_id is not null;
    create unique index member_grants_member_application_unique on member_grants (member_id, application_id)
      where application_id is not null;`);
}

/** Drops the two indexes. */
export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    drop index if exists member_grants_member_project_unique;
    drop index if exists member_grants_member_application_unique;`);
}
