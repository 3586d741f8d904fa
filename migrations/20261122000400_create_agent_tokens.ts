/**
 * Agent API (spec: Authentication → Agent API; Limits): `agent_tokens`, one read-only personal token per
 * member of an organization, stored as a SHA-256 hash; and `agent_rate_limits`, the fixed-window counters of
 * rate-limiter-flexible's RateLimiterPostgres (its own table layout, unlogged), shared by every server instance.
 */
import type { Knex } from "knex";

/** Creates both tables. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("agent_tokens", (t) => {
    t.text("id").primary();
    t.text("organization_id").notNullable().references("organizations.id").onDelete("CASCADE");
    t.text("user_id").notNullable().references("users.id").onDelete("CASCADE").index();
    // The token belongs to a membership: removing the member removes the token.
    t.text("member_id").notNullable().references("members.id").onDelete("CASCADE").index();
    // SHA-256 of the whole token, hex.
    t.text("token_hash").notNullable().unique();
    // First characters of the token, shown in the dashboard to recognise it.
    t.text("prefix").notNullable();
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp("last_used_at", { useTz: true });
    // null: never expires.
    t.timestamp("expires_at", { useTz: true });
    t.unique(["organization_id", "user_id"]);
  });
  // Layout required by rate-limiter-flexible (RateLimiterPostgres with `tableCreated: true`). Unlogged: every
  // agent request writes here, and one-minute counters need no WAL, fsync or crash safety (a crash resets them).
  await knex.raw(`
    create unlogged table agent_rate_limits (
      key varchar(255) primary key,
      points integer not null default 0,
      expire bigint
    )
  `);
}

/** Drops both tables (every agent token stops working). */
export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists("agent_rate_limits");
  await knex.schema.dropTableIfExists("agent_tokens");
}
