/**
 * Payment gateway service (spec: Payment gateway service): `payment_merchants`, the one merchant
 * identity of an organization at the gateway (code, encrypted signing key, provisioning status);
 * `payment_gateway_services`, the gateway services of projects (name, optional webhook URL); and
 * `payment_relays`, the relay log of verified payment events (one row per event and target URL).
 */
import type { Knex } from "knex";

/** Creates the three tables. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("payment_merchants", (t) => {
    // One merchant per organization (spec: Limits, merchants per organization 1).
    t.text("organization_id").primary().references("organizations.id").onDelete("CASCADE");
    // The gateway's id of the merchant (management API), known at creation.
    t.text("gateway_merchant_id").notNullable();
    // Case-sensitive code, null while the gateway provisions it.
    t.text("merchant_code").unique();
    // Signing key sealed with the server secret (src/db/secrets.ts), null while provisioning.
    t.text("signing_key_sealed");
    t.text("status").notNullable().defaultTo("provisioning");
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.schema.createTable("payment_gateway_services", (t) => {
    t.text("id").primary();
    t.text("organization_id").notNullable().references("organizations.id").onDelete("CASCADE").index();
    t.text("project_id").notNullable().references("projects.id").onDelete("CASCADE").index();
    t.text("name").notNullable();
    t.text("webhook_url");
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.schema.createTable("payment_relays", (t) => {
    t.text("id").primary();
    t.text("organization_id").notNullable().references("organizations.id").onDelete("CASCADE");
    t.text("service_id").notNullable().references("payment_gateway_services.id").onDelete("CASCADE");
    t.text("event_type").notNullable();
    // False for event types the spec does not list (relayed all the same).
    t.boolean("known_event").notNullable();
    t.text("external_reference");
    t.text("target_url").notNullable();
    // delivered | failed | refused
    t.text("outcome").notNullable();
    t.integer("status_code");
    t.text("error");
    t.integer("duration_ms").notNullable();
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(["service_id", "id"]);
  });
}

/** Drops the three tables (merchants at the gateway are not released). */
export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists("payment_relays");
  await knex.schema.dropTableIfExists("payment_gateway_services");
  await knex.schema.dropTableIfExists("payment_merchants");
}
