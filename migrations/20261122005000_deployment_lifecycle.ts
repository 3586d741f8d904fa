/**
 * Deployment lifecycle: deployments get their rendered manifests, a commit SHA and an error message,
 * and a log of lines (`deployment_logs`); applications get deploy settings (auto-deploy, branch filter, watch
 * paths, health path), their current health, the deploy trigger token and the push webhook secret.
 */
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable("deployments", (t) => {
    t.jsonb("manifests");
    t.text("commit_sha");
    t.text("error_message");
    t.index(["application_id", "status"]);
  });
  await knex.schema.createTable("deployment_logs", (t) => {
    t.bigIncrements("id").primary();
    t.text("deployment_id").notNullable().references("deployments.id").onDelete("CASCADE");
    t.timestamp("at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.text("level").notNullable().checkIn(["info", "warn", "error"]);
    t.text("text").notNullable();
    t.index(["deployment_id", "id"]);
  });
  await knex.schema.alterTable("applications", (t) => {
    t.boolean("auto_deploy").notNullable().defaultTo(false);
    t.text("branch_filter");
    t.specificType("watch_paths", "text[]").notNullable().defaultTo("{}");
    t.text("health_path").notNullable().defaultTo("/");
    t.text("health").notNullable().defaultTo("unknown");
    t.integer("health_failures").notNullable().defaultTo(0);
    t.timestamp("health_checked_at", { useTz: true });
    // Deploy trigger URL token: sha256 hex for look-up, AES-GCM for showing it again (src/db/secrets.ts).
    t.text("deploy_token_hash").unique();
    t.text("deploy_token_encrypted");
    // Secret of push webhooks (GitHub X-Hub-Signature-256, GitLab X-Gitlab-Token); null = none set.
    t.text("webhook_secret_encrypted");
    t.boolean("require_signature").notNullable().defaultTo(false);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable("applications", (t) => {
    for (const c of [
      "auto_deploy",
      "branch_filter",
      "watch_paths",
      "health_path",
      "health",
      "health_failures",
      "health_checked_at",
      "deploy_token_hash",
      "deploy_token_encrypted",
      "webhook_secret_encrypted",
      "require_signature",
    ])
      t.dropColumn(c);
  });
  await knex.schema.dropTableIfExists("deployment_logs");
  await knex.schema.alterTable("deployments", (t) => {
    t.dropIndex(["application_id", "status"]);
    for (const c of ["manifests", "commit_sha", "error_message"]) t.dropColumn(c);
  });
}
