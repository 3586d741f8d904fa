/**
 * Site import records (spec: "Import record", "Import status"): one row per import request of an organization,
 * holding the stored input (encrypted: it carries the database password and environment variable values),
 * the status, the ids of the resources created so far, and the error details of the last run.
 * Resource ids are set to null when the resource is deleted outside the import (foreign keys `set null`).
 */
import type { Knex } from "knex";

/** Creates `site_imports`. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("site_imports", (t) => {
    t.text("id").primary();
    t.text("organization_id").notNullable().references("organizations.id").onDelete("CASCADE");
    t.text("created_by_user_id").references("users.id").onDelete("SET NULL");
    // The request's `name` (project and application name), kept in clear for listing.
    t.text("name").notNullable();
    t.text("status").notNullable().defaultTo("pending").checkIn(["pending", "success", "partial", "failed"]);
    // The validated import request as JSON, sealed with the server secret (src/db/secrets.ts).
    t.text("input_encrypted").notNullable();
    t.text("project_id").references("projects.id").onDelete("SET NULL");
    t.text("database_id").references("databases.id").onDelete("SET NULL");
    t.text("application_id").references("applications.id").onDelete("SET NULL");
    t.text("domain_id").references("domains.id").onDelete("SET NULL");
    t.text("deployment_id").references("deployments.id").onDelete("SET NULL");
    t.text("database_service_host");
    t.text("error_step").checkIn([
      "project_creation",
      "database_creation",
      "application_creation",
      "domain_creation",
      "deployment",
    ]);
    t.text("error_message");
    // Runs of the stored input: 1 after the import, +1 per retry.
    t.integer("attempts").notNullable().defaultTo(1);
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp("updated_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    // End of the last run; null while pending.
    t.timestamp("finished_at", { useTz: true });
    t.index(["organization_id", "id"]);
    // Foreign key lookups when a resource is deleted (set null).
    for (const column of ["project_id", "database_id", "application_id", "domain_id", "deployment_id"])
      t.index([column]);
  });
}

/** Drops `site_imports`. */
export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists("site_imports");
}
