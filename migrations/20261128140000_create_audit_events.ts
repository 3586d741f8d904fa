/**
 * `audit_events`: the append-only audit log (docs/audit-log.md) — one row per change or sensitive read: when, in
 * which organization, by whom (user and credential, or the platform itself), on which surface, what action on which
 * targets, with what outcome, from which client address, in which request. Rows are never updated (a trigger refuses
 * it); the retention job deletes rows older than SKIFF_AUDIT_RETENTION_DAYS. No foreign keys: an entry outlives the
 * organization, user or credential it names. Enum columns hold the GraphQL enums' names under CHECK constraints.
 */
import type { Knex } from "knex";

/** Creates the table, its indexes and the trigger refusing updates. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("audit_events", (t) => {
    t.text("id").primary();
    t.timestamp("occurred_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.text("organization_id");
    t.text("actor_kind").notNullable();
    t.text("actor_user_id");
    t.text("credential_kind");
    t.text("credential_id");
    t.text("surface").notNullable();
    t.text("action").notNullable();
    t.specificType("target_ids", "text[]").notNullable().defaultTo("{}");
    t.text("outcome").notNullable();
    t.text("client_address");
    t.text("request_id");
    t.index(["organization_id", "id"], "audit_events_organization_id_idx");
    t.index(["occurred_at"], "audit_events_occurred_at_idx");
  });
  await knex.raw(`alter table audit_events
    add constraint audit_events_actor_kind_check check (actor_kind in ('USER', 'SYSTEM', 'ANONYMOUS')),
    add constraint audit_events_credential_kind_check
      check (credential_kind in ('SESSION', 'API_KEY', 'AGENT_TOKEN')),
    add constraint audit_events_surface_check
      check (surface in ('GRAPHQL', 'REST', 'PROCEDURE', 'CLI', 'AGENT', 'MCP', 'AUTH', 'SYSTEM'))`);
  await knex.raw("create index audit_events_target_ids_idx on audit_events using gin (target_ids)");
  await knex.raw(`create function audit_events_refuse_update() returns trigger language plpgsql as $$
    begin raise exception 'audit_events is append-only'; end $$`);
  await knex.raw(`create trigger audit_events_append_only before update on audit_events
    for each row execute function audit_events_refuse_update()`);
}

/** Drops the table and its trigger function. */
export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable("audit_events");
  await knex.raw("drop function audit_events_refuse_update()");
}
