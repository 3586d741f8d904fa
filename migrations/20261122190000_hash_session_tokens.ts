/**
 * Session tokens are stored hashed (src/auth/session-token-hashing.ts): the tokens of existing
 * sessions are replaced by their SHA-256 (lowercase hex), so signed-in users stay signed in.
 */
import type { Knex } from "knex";

/** Hashes the stored tokens (tokens already in the stored form, 64 hex digits, are left alone). */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(
    "update sessions set token = encode(sha256(convert_to(token, 'UTF8')), 'hex') where token !~ '^[0-9a-f]{64}$'",
  );
}

/** A hash cannot be turned back into its token: the sessions are ended (users sign in again). */
export async function down(knex: Knex): Promise<void> {
  await knex("sessions").delete();
}
