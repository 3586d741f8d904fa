/**
 * Platform tables: plans and quotas, member grants, projects, environments, applications,
 * databases, domains, environment variables, deployments, git providers, container registries, SSH keys.
 * Ids are TypeIDs (text, see src/db/ids.ts). Every child row cascades from its parent.
 */
import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("plans", (t) => {
    t.text("id").primary();
    t.text("name").notNullable().unique();
    // null quota = unlimited
    t.integer("max_projects");
    t.integer("max_applications");
    t.integer("max_databases");
    t.integer("max_domains");
    t.specificType("features", "text[]").notNullable().defaultTo("{}");
  });
  await knex("plans").insert([
    {
      id: "plan_free",
      name: "free",
      max_projects: 3,
      max_applications: 5,
      max_databases: 2,
      max_domains: 3,
      features: [],
    },
    {
      id: "plan_pro",
      name: "pro",
      max_projects: 50,
      max_applications: 200,
      max_databases: 50,
      max_domains: 200,
      features: ["webhooks", "ai_assistant"],
    },
    { id: "plan_unlimited", name: "unlimited", features: ["webhooks", "ai_assistant"] },
  ]);
  await knex.schema.alterTable("organizations", (t) => {
    t.text("plan_id").notNullable().defaultTo("plan_free").references("plans.id");
  });

  await knex.schema.createTable("projects", (t) => {
    t.text("id").primary();
    t.text("organization_id").notNullable().references("organizations.id").onDelete("CASCADE");
    t.text("name").notNullable();
    t.text("description");
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp("updated_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(["organization_id", "name"]);
  });
  await knex.schema.createTable("environments", (t) => {
    t.text("id").primary();
    t.text("project_id").notNullable().references("projects.id").onDelete("CASCADE");
    t.text("name").notNullable();
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(["project_id", "name"]);
  });
  await knex.schema.createTable("applications", (t) => {
    t.text("id").primary();
    t.text("organization_id").notNullable().references("organizations.id").onDelete("CASCADE");
    t.text("project_id").notNullable().references("projects.id").onDelete("CASCADE");
    t.text("environment_id").notNullable().references("environments.id").onDelete("CASCADE");
    t.text("name").notNullable();
    t.text("app_name").notNullable().unique();
    t.text("source_type").checkIn(["github", "gitlab", "docker", "git"]);
    t.jsonb("source").notNullable().defaultTo("{}");
    t.text("build_type").checkIn(["dockerfile", "nixpacks"]);
    t.integer("port").notNullable().defaultTo(80);
    t.text("application_status").defaultTo("idle");
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp("updated_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(["environment_id"]);
    t.index(["organization_id"]);
    t.index(["project_id"]);
  });
  await knex.schema.createTable("member_grants", (t) => {
    t.text("id").primary();
    t.text("member_id").notNullable().references("members.id").onDelete("CASCADE");
    t.text("project_id").references("projects.id").onDelete("CASCADE");
    t.text("application_id").references("applications.id").onDelete("CASCADE");
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(["member_id"]);
    t.check("(project_id is null) <> (application_id is null)", [], "member_grants_one_target");
  });
  await knex.schema.createTable("databases", (t) => {
    t.text("id").primary();
    t.text("organization_id").notNullable().references("organizations.id").onDelete("CASCADE");
    t.text("project_id").notNullable().references("projects.id").onDelete("CASCADE");
    t.text("environment_id").notNullable().references("environments.id").onDelete("CASCADE");
    t.text("type").notNullable().checkIn(["mariadb", "mysql", "postgres", "mongodb"]);
    t.text("name").notNullable();
    t.text("username").notNullable();
    t.text("password_encrypted").notNullable();
    t.text("service_host").notNullable().unique();
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(["environment_id"]);
    t.index(["organization_id"]);
  });
  await knex.schema.createTable("domains", (t) => {
    t.text("id").primary();
    t.text("organization_id").notNullable().references("organizations.id").onDelete("CASCADE");
    t.text("application_id").notNullable().references("applications.id").onDelete("CASCADE");
    t.text("host").notNullable().unique();
    t.integer("port");
    t.boolean("https").defaultTo(true);
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(["application_id"]);
    t.index(["organization_id"]);
  });
  await knex.schema.createTable("environment_variables", (t) => {
    t.text("id").primary();
    t.text("application_id").notNullable().references("applications.id").onDelete("CASCADE");
    t.text("key").notNullable();
    t.text("value_encrypted").notNullable();
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(["application_id", "key"]);
  });
  await knex.schema.createTable("deployments", (t) => {
    t.text("id").primary();
    t.text("application_id").notNullable().references("applications.id").onDelete("CASCADE");
    t.text("status");
    t.text("title").notNullable();
    t.text("description");
    t.text("trigger").notNullable().defaultTo("api");
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp("started_at", { useTz: true });
    t.timestamp("finished_at", { useTz: true });
    t.index(["application_id", "created_at"]);
  });
  await knex.schema.createTable("git_providers", (t) => {
    t.text("id").primary();
    t.text("organization_id").notNullable().references("organizations.id").onDelete("CASCADE");
    t.text("type").notNullable().checkIn(["github", "gitlab"]);
    t.text("name").notNullable();
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(["organization_id"]);
  });
  await knex.schema.createTable("container_registries", (t) => {
    t.text("id").primary();
    t.text("organization_id").notNullable().references("organizations.id").onDelete("CASCADE");
    t.text("name").notNullable();
    t.text("url").notNullable();
    t.text("username");
    t.text("password_encrypted");
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(["organization_id"]);
  });
  await knex.schema.createTable("ssh_keys", (t) => {
    t.text("id").primary();
    t.text("organization_id").notNullable().references("organizations.id").onDelete("CASCADE");
    t.text("name").notNullable();
    t.text("public_key").notNullable();
    t.text("private_key_encrypted").notNullable();
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(["organization_id"]);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of [
    "ssh_keys",
    "container_registries",
    "git_providers",
    "deployments",
    "environment_variables",
    "domains",
    "databases",
    "member_grants",
    "applications",
    "environments",
    "projects",
  ]) {
    await knex.schema.dropTableIfExists(table);
  }
  await knex.schema.alterTable("organizations", (t) => t.dropColumn("plan_id"));
  await knex.schema.dropTableIfExists("plans");
}
