/**
 * `invitations.limited_to_grants`: the invited `member` joins limited to `pending_grants`, even when none of them is
 * left by then (an organization import invites a member whose grants' targets were all deleted as limited: they
 * see no project, as on the instance they were exported from; docs/organization-transfer.md). Existing invitations
 * with grants are limited, as their grants made them.
 */
import type { Knex } from "knex";

/** Adds the column, true for the invitations that carry grants. */
export async function up(knex: Knex): Promise<void> {
  await knex.raw("alter table invitations add column if not exists limited_to_grants boolean not null default false");
  await knex.raw("update invitations set limited_to_grants = true where jsonb_array_length(pending_grants) > 0");
}

/** Drops it. */
export async function down(knex: Knex): Promise<void> {
  await knex.raw("alter table invitations drop column if exists limited_to_grants");
}
