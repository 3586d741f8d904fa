/**
 * Organizations, team and sign-in additions (spec "Organization and access resources",
 * "Invitation" states, "Sign-in and accounts"):
 * - `invitations.token_hash` / `token_encrypted`: the unguessable link token, looked up by SHA-256 hash and kept
 *   encrypted (AES-256-GCM, src/db/secrets.ts) so a resend mails the same link;
 * - `two_factors.last_totp_step`: the last accepted TOTP time step (30 s units since the epoch), so a code is
 *   accepted once;
 * - `mail_outbox`: mails written instead of sent when SMTP_URL is unset;
 * - `notification_channels`: where an organization's notifications go (e-mail addresses for now).
 * Every column added to a better-auth table is nullable: better-auth validates its schema on its first call.
 */
import type { Knex } from "knex";

/** Adds the columns and tables listed above. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable("invitations", (t) => {
    t.text("token_hash").unique();
    t.text("token_encrypted");
  });
  await knex.schema.alterTable("two_factors", (t) => {
    t.bigInteger("last_totp_step");
  });
  await knex.schema.createTable("mail_outbox", (t) => {
    t.text("id").primary();
    t.text("to").notNullable().index();
    t.text("subject").notNullable();
    t.text("text").notNullable();
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.schema.createTable("notification_channels", (t) => {
    t.text("id").primary();
    t.text("organization_id").notNullable().references("organizations.id").onDelete("CASCADE");
    t.text("type").notNullable().checkIn(["email"]);
    t.text("name").notNullable();
    t.text("target").notNullable();
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(["organization_id", "type", "target"]);
  });
}

/** Removes them again. */
export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists("notification_channels");
  await knex.schema.dropTableIfExists("mail_outbox");
  await knex.schema.alterTable("two_factors", (t) => t.dropColumn("last_totp_step"));
  await knex.schema.alterTable("invitations", (t) => {
    t.dropColumn("token_encrypted");
    t.dropColumn("token_hash");
  });
}
