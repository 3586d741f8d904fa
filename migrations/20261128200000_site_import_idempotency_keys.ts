/**
 * `site_import_idempotency_keys`: the `Idempotency-Key` of an import request (docs/site-imports.md, "Idempotent
 * requests"), one row per organization and key. The primary key makes two concurrent requests with one key
 * serialize on the index: the second waits for the first's transaction and then finds its row. `request_digest` is a
 * keyed digest (HMAC-SHA-256 with the server secret) of the validated request, so a reuse with another body is
 * recognised without storing the request (its database password) again. Deleting the import record deletes its key.
 */
import type { Knex } from "knex";

/** Creates the table and the index the pruning job reads by. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("site_import_idempotency_keys", (t) => {
    t.text("organization_id").notNullable().references("organizations.id").onDelete("CASCADE");
    t.text("key").notNullable();
    t.text("request_digest").notNullable();
    // Checked at commit: the key is claimed before the record it names is inserted, in the same transaction.
    t.text("site_import_id").notNullable().references("site_imports.id").onDelete("CASCADE").deferrable("deferred");
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    // Past it the key is free again (a new request with it starts a new import); pruned by `imports.prune-idempotency-keys`.
    t.timestamp("expires_at", { useTz: true }).notNullable();
    t.primary(["organization_id", "key"]);
    t.index(["expires_at"]);
    t.index(["site_import_id"]);
  });
}

/** Drops it. */
export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists("site_import_idempotency_keys");
}
