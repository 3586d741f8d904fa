/**
 * A version of each member's standing (remembered callers): `members.standing_version` grows, in the same
 * transaction, whenever something a member's standing reads besides its own row changes — its grants
 * (`member_grants`), a granted application's project (`applications.project_id`), its organization's plan
 * (`organizations.plan_id`), that plan's features (`plans.features`) — and when its user's email changes (the API
 * key caller carries it). The statement that confirms a remembered API key or agent token then reads the key and the
 * member row alone (`memberStandingJoinSql(…, "version")` in src/modules/access/standing.ts): the member's id, role
 * and version stand for the whole standing, and a change to any of these answers as an instance that remembers
 * nothing would. test/db/standing-versions.test.ts checks every table the standing reads has its trigger here.
 */
import type { Knex } from "knex";

/** Each trigger: [table, when it fires, the members whose version grows (SQL over `old`/`new`)]. */
const TRIGGERS: Array<[string, string, string]> = [
  [
    "member_grants",
    "after insert or update or delete on member_grants for each row",
    `id in (case when TG_OP <> 'INSERT' then old.member_id end, case when TG_OP <> 'DELETE' then new.member_id end)`,
  ],
  [
    "applications",
    "after update of project_id on applications for each row when (old.project_id is distinct from new.project_id)",
    "id in (select g.member_id from member_grants g where g.application_id = new.id)",
  ],
  [
    "organizations",
    "after update of plan_id on organizations for each row when (old.plan_id is distinct from new.plan_id)",
    "organization_id = new.id",
  ],
  [
    "plans",
    "after update of features on plans for each row when (old.features is distinct from new.features)",
    "organization_id in (select o.id from organizations o where o.plan_id = new.id)",
  ],
  [
    "users",
    "after update of email on users for each row when (old.email is distinct from new.email)",
    "user_id = new.id",
  ],
];

/** The trigger function of `table`. */
const functionName = (table: string) => `skiff_${table}_bump_standing_version`;

/** Adds the column and the triggers. */
export async function up(knex: Knex): Promise<void> {
  await knex.raw("alter table members add column standing_version bigint not null default 0");
  for (const [table, when, members] of TRIGGERS) {
    await knex.raw(`
      create function ${functionName(table)}() returns trigger language plpgsql as $$
      begin
        update members set standing_version = standing_version + 1 where ${members};
        return null;
      end $$;
      create trigger ${table}_bump_standing_version ${when} execute function ${functionName(table)}();`);
  }
}

/** Drops the triggers and the column. */
export async function down(knex: Knex): Promise<void> {
  for (const [table] of TRIGGERS) {
    await knex.raw(`drop trigger if exists ${table}_bump_standing_version on ${table};
      drop function if exists ${functionName(table)}();`);
  }
  await knex.raw("alter table members drop column if exists standing_version");
}
