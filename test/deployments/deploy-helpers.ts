/** Helpers of the deploy tests: a seeded application with its tree, and reading deployments back. */
import type { Knex } from "knex";
import { newId } from "../../src/db/ids.ts";
import { createSecretBox } from "../../src/db/secrets.ts";
import { createOrg, createProjects, TEST_SECRET } from "../helpers/seed.ts";

const box = createSecretBox(TEST_SECRET);

/** An organization (owner with API key) with one project and one docker application (`nginx:1.27`). */
export async function seededApplication(knex: Knex, patch: Record<string, unknown> = {}) {
  const org = await createOrg(knex);
  const [projectId] = await createProjects(knex, org.organizationId, 1, { applicationsPerEnvironment: 1 });
  const app = await knex("applications").where({ project_id: projectId }).first();
  if (Object.keys(patch).length) await knex("applications").where({ id: app.id }).update(patch);
  return {
    ...org,
    projectId: projectId!,
    applicationId: app.id as string,
    appName: app.appName as string,
    environmentId: app.environmentId as string,
  };
}

/** Adds a domain to an application. */
export async function addDomain(knex: Knex, organizationId: string, applicationId: string, host: string, https = true) {
  await knex("domains").insert({
    id: newId("domain"),
    organization_id: organizationId,
    application_id: applicationId,
    host,
    https,
  });
}

/** Adds an environment variable (encrypted as the service does). */
export async function addVariable(knex: Knex, applicationId: string, key: string, value: string) {
  await knex("environment_variables").insert({
    id: newId("envVar"),
    application_id: applicationId,
    key,
    value_encrypted: box.encrypt(value),
  });
}

/** Deployments of an application, oldest first. */
export function deploymentsOf(knex: Knex, applicationId: string) {
  return knex("deployments").where({ application_id: applicationId }).orderBy("created_at").orderBy("id");
}

/** Adds a database to the environment of an application (password encrypted as the service does). */
export async function addDatabase(
  knex: Knex,
  app: { organizationId: string; projectId: string; environmentId: string; appName: string },
  type: "postgres" | "mysql" | "mariadb" | "mongodb" = "postgres",
) {
  await knex("databases").insert({
    id: newId("database"),
    organization_id: app.organizationId,
    project_id: app.projectId,
    environment_id: app.environmentId,
    type,
    name: "shop",
    username: "shop_user",
    password_encrypted: box.encrypt("s3cret-pass"),
    service_host: `${app.appName}-db.svc.cluster.local`,
  });
}
