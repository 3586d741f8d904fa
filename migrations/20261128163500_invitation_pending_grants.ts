/**
 * `invitations.pending_grants`: the projects and applications an invited `member` is limited to, given when they
 * join (an organization import carries its members' grants as invitations: docs/organization-transfer.md). A JSON
 * array of `{"projectId": …}` or `{"applicationId": …}`; empty: no limit. A grant whose project or application is
 * gone by the time the invitation is accepted is not given.
 */
import type { Knex } from "knex";

/** Adds the column (existing invitations: none). */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(
    `alter table invitations add column pending_grants jsonb not null default '[]'::jsonb
       constraint invitations_pending_grants_array check (jsonb_typeof(pending_grants) = 'array')`,
  );
}

/** Drops it. */
export async function down(knex: Knex): Promise<void> {
  await knex.raw("alter table invitations drop column if exists pending_grants");
}
