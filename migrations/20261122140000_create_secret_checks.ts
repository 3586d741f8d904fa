/**
 * `secret_checks`: one canary row (`id = 'canary'`) sealed with the server secret by the first start, so that a
 * later start with another secret is refused before anything encrypted is misread (src/db/instance-secret.ts).
 */
import type { Knex } from "knex";

/** Creates the table. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("secret_checks", (t) => {
    t.text("id").primary();
    // SecretBox output: v1.<iv>.<tag>.<ciphertext>.
    t.text("sealed").notNullable();
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
}

/** Drops the table. */
export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable("secret_checks");
}
