/**
 * `auth_attempt_limits`: rate-limiter-flexible's RateLimiterPostgres counters of sign-in,
 * sign-up, verification-mail, password-reset and two-factor attempts, per account and per client address, shared
 * by every server instance. Logged (unlike `agent_rate_limits`) so a crash or restart does not reset a lockout.
 */
import type { Knex } from "knex";

/** Creates the table (rate-limiter-flexible's own layout). */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table auth_attempt_limits (
      key varchar(255) primary key,
      points integer not null default 0,
      expire bigint
    )
  `);
}

/** Drops the table (every counter resets). */
export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists("auth_attempt_limits");
}
