/**
 * An organization seeded with every kind of resource the organization bundle holds (docs/organization-transfer.md):
 * two projects (one with two environments), applications with GitHub, Docker and plain git sources, build and deploy
 * settings, domains, variables, a database, a payment gateway service, a webhook endpoint, the docs theme and
 * hostname, an admin and a member with grants. Shared by the export and import tests.
 */
import { randomBytes, randomUUID } from "node:crypto";
import type { Knex } from "knex";
import { newId } from "../../src/db/ids.ts";
import type { SecretBox } from "../../src/db/secrets.ts";
import { addMember, createOrg } from "../helpers/seed.ts";

/** The secrets planted in a seed: none may appear in clear in a bundle. */
export interface Planted {
  apiKey: string;
  dsn: string;
  dbPassword: string;
  webhookSecret: string;
}

/** New planted secrets. */
export function plantSecrets(): Planted {
  return {
    apiKey: `PLANTED-env-${randomBytes(12).toString("hex")}`,
    dsn: `PLANTED-dsn-${randomBytes(12).toString("hex")}`,
    dbPassword: `PLANTED-db-${randomBytes(12).toString("hex")}`,
    webhookSecret: `whsec_PLANTED${randomBytes(16).toString("hex")}`,
  };
}

/** What a seed is made of: the names' tag, the secrets, the people, and the URLs (an import checks them). */
export interface SeedOptions {
  tag: string;
  planted: Planted;
  /** The same people as another seed (the same organization on another instance). */
  people?: { owner: string; admin: string; member: string };
  /** The webhook endpoint's URL; default `https://hooks.example.test/skiff`. */
  webhookUrl?: string;
  /** The payment gateway service's relay URL; default `https://shop.example.test/payments`. */
  paymentWebhookUrl?: string;
}

/** What the seed made, for the assertions. */
export interface Seeded {
  organizationId: string;
  ownerKey: string;
  ownerEmail: string;
  adminKey: string;
  memberKey: string;
  adminEmail: string;
  memberEmail: string;
}

/** Seeds one organization with every kind of resource in `knex`, secrets encrypted with `box`. */
export async function seedOrganization(knex: Knex, box: SecretBox, options: SeedOptions): Promise<Seeded> {
  const { tag, planted, people } = options;
  const { organizationId, owner } = await createOrg(knex);
  await knex("organizations")
    .where({ id: organizationId })
    .update({ name: `Shop ${tag}` });
  if (people) {
    await knex("users").where({ id: owner.userId }).update({ email: people.owner });
  }
  const ownerEmail = people?.owner ?? owner.email;
  const project = async (name: string, description: string | null, envs: string[]) => {
    const id = newId("project");
    await knex("projects").insert({ id, organization_id: organizationId, name, description });
    const envIds: Record<string, string> = {};
    for (const env of envs) {
      envIds[env] = newId("environment");
      await knex("environments").insert({ id: envIds[env], project_id: id, name: env });
    }
    return { id, envIds };
  };
  const shop = await project(`shop-${tag}`, "The web shop", ["production", "staging"]);
  const blog = await project(`blog-${tag}`, null, ["production"]);
  const unique = () => randomBytes(4).toString("hex");
  const app = async (p: { id: string }, environmentId: string, name: string, extra: Record<string, unknown>) => {
    const id = newId("application");
    await knex("applications").insert({
      id,
      organization_id: organizationId,
      project_id: p.id,
      environment_id: environmentId,
      name,
      app_name: `${name}-${unique()}`,
      ...extra,
    });
    return id;
  };
  const web = await app(shop, shop.envIds.production!, "web", {
    source_type: "github",
    source: JSON.stringify({ repo: "acme/shop", branch: "main", buildPath: "/", gitProviderId: "gitp_instance_bound" }),
    build_type: "nixpacks",
    port: 3000,
    auto_deploy: true,
    branch_filter: "release/*",
    watch_paths: ["src/**", "package.json"],
    health_path: "/healthz",
    require_signature: true,
    deploy_token_hash: randomBytes(16).toString("hex"),
    deploy_token_encrypted: box.encrypt("PLANTED-deploy-token"),
    webhook_secret_encrypted: box.encrypt("PLANTED-push-secret"),
  });
  await app(shop, shop.envIds.staging!, "web", {
    source_type: "docker",
    source: JSON.stringify({ dockerImage: "nginx:1.27" }),
    build_type: "dockerfile",
    port: 80,
  });
  const worker = await app(blog, blog.envIds.production!, "worker", {
    source_type: "git",
    source: JSON.stringify({ customGitUrl: "https://git.example.test/blog.git", branch: "trunk", buildPath: "/" }),
    build_type: "dockerfile",
  });
  await knex("domains").insert([
    {
      id: newId("domain"),
      organization_id: organizationId,
      application_id: web,
      host: `shop-${tag}.example.test`,
      https: true,
    },
    {
      id: newId("domain"),
      organization_id: organizationId,
      application_id: web,
      host: `www-${tag}.example.test`,
      port: 8080,
      https: false,
    },
  ]);
  await knex("environment_variables").insert([
    { id: newId("envVar"), application_id: web, key: "API_KEY", value_encrypted: box.encrypt(planted.apiKey) },
    { id: newId("envVar"), application_id: web, key: "DATABASE_URL", value_encrypted: box.encrypt(planted.dsn) },
    { id: newId("envVar"), application_id: worker, key: "EMPTY", value_encrypted: box.encrypt("") },
  ]);
  await knex("databases").insert({
    id: newId("database"),
    organization_id: organizationId,
    project_id: shop.id,
    environment_id: shop.envIds.production!,
    type: "postgres",
    name: "shopdb",
    username: "shop",
    password_encrypted: box.encrypt(planted.dbPassword),
    service_host: `shopdb-${unique()}.svc.cluster.local`,
  });
  await knex("payment_gateway_services").insert({
    id: newId("paymentGatewayService"),
    organization_id: organizationId,
    project_id: shop.id,
    name: "checkout",
    webhook_url: options.paymentWebhookUrl ?? "https://shop.example.test/payments",
  });
  await knex("webhook_endpoints").insert({
    id: `webhook_${randomUUID()}`,
    organization_id: organizationId,
    url: options.webhookUrl ?? "https://hooks.example.test/skiff",
    events: ["user_signed_up", "course_created"],
    secret_encrypted: box.encrypt(planted.webhookSecret),
    is_active: false,
    description: "CI notifications",
  });
  await knex("docs_themes").insert({
    organization_id: organizationId,
    site_name: "Shop docs",
    logo_url: "https://cdn.example.test/logo.svg",
    favicon_url: null,
    colors_light: JSON.stringify({ primary: "222 47% 11%" }),
    colors_dark: JSON.stringify({ primary: "210 40% 98%" }),
    footer_text: "© Shop",
    custom_css: ".hero { color: red }",
    docs_hostname: `docs-${tag}-${unique()}.example.test`,
  });
  const admin = await addMember(knex, organizationId, "admin");
  const member = await addMember(knex, organizationId, "member", { projectIds: [blog.id], applicationIds: [web] });
  if (people) {
    await knex("users").where({ id: admin.userId }).update({ email: people.admin });
    await knex("users").where({ id: member.userId }).update({ email: people.member });
  }
  return {
    organizationId,
    ownerKey: owner.apiKey,
    ownerEmail,
    adminKey: admin.apiKey,
    memberKey: member.apiKey,
    adminEmail: people?.admin ?? admin.email,
    memberEmail: people?.member ?? member.email,
  };
}
