/**
 * Docs-domain theming (spec "Docs-domain lookup and theme"):
 * - `docs_themes`: one theme per organization (what `/o/<databaseId>/api/theme` serves), its saved docs
 *   hostname (unique platform-wide) and the state of that hostname's registration at the docs host as the last
 *   synchronisation reported it (`docs_synced_at`, `docs_dns`, `docs_conflict`).
 * - `docs_host_registrations`: the docs-host role's table, hostname → owning instance (`cloud_url`), keyed by the
 *   SHA-256 digest of the license that registered it; each sync replaces that license's rows.
 * - `docs_sync_state`: one row, when an instance of this database last started a synchronisation (`docs.sync`).
 * Relies on `organizations.database_id` (migration 20261122000600).
 */
import type { Knex } from "knex";

/** Creates the three tables. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("docs_themes", (t) => {
    t.text("organization_id").primary().references("organizations.id").onDelete("CASCADE");
    t.text("site_name").notNullable();
    t.text("logo_url").notNullable();
    t.text("favicon_url");
    // json, not jsonb: the entries keep the order the owner gave (the CSS lists them in that order).
    t.json("colors_light").notNullable();
    t.json("colors_dark").notNullable();
    t.text("footer_text").notNullable().defaultTo("");
    t.text("custom_css");
    t.text("docs_hostname").unique();
    t.timestamp("docs_synced_at", { useTz: true });
    t.text("docs_dns").notNullable().defaultTo("PENDING");
    t.boolean("docs_conflict").notNullable().defaultTo(false);
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp("updated_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.schema.createTable("docs_host_registrations", (t) => {
    t.text("hostname").primary();
    t.text("license_sha256").notNullable().index();
    t.text("cloud_url").notNullable();
    t.text("dns").notNullable();
    t.timestamp("synced_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.schema.createTable("docs_sync_state", (t) => {
    t.integer("id").primary();
    t.timestamp("last_run_at", { useTz: true }).notNullable();
  });
}

/** Drops them. */
export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable("docs_sync_state");
  await knex.schema.dropTable("docs_host_registrations");
  await knex.schema.dropTable("docs_themes");
}
