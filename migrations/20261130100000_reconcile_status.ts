/**
 * `reconcile_status`: the outcome of the last reconcile of each organization (GraphQL `Organization.clusterSync`;
 * docs/deployments.md "Deleting"), one row per organization, its id the organization's: when the last run ended,
 * when one last made every change, since when runs fail and the last run's failure messages (a JSON array of strings).
 */
import type { Knex } from "knex";

/** Creates the table. */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(
    `create table if not exists reconcile_status (
       id text primary key references organizations(id) on delete cascade,
       checked_at timestamptz not null,
       synced_at timestamptz,
       failing_since timestamptz,
       failures jsonb not null default '[]'::jsonb
         constraint reconcile_status_failures_array check (jsonb_typeof(failures) = 'array')
     )`,
  );
}

/** Drops it. */
export async function down(knex: Knex): Promise<void> {
  await knex.raw("drop table if exists reconcile_status");
}
