/**
 * Seed builders: each creates what one test needs, with unique names, directly through the models
 * (fast; sign-up flows have their own tests). Secrets are returned in plain text for the test to use.
 */
import { randomBytes } from "node:crypto";
import type { Knex } from "knex";
import type { Role } from "../../src/auth/access/standing.ts";
import { hashApiKey } from "../../src/auth/credentials/api-key.ts";
import { hashPassword } from "../../src/auth/password.ts";
import { newId } from "../../src/db/ids.ts";
import { createSecretBox } from "../../src/db/secrets.ts";
import { generateAgentToken } from "../../src/modules/agent/agent-token.secret.ts";

/** Secret used by test servers (and so by seeds that encrypt). */
export const TEST_SECRET = "test-secret-test-secret-test-secret-0123";
const box = createSecretBox(TEST_SECRET);
const unique = () => randomBytes(4).toString("hex");

/** A user with an API key bound to one organization. */
export interface SeededUser {
  userId: string;
  email: string;
  memberId: string;
  apiKey: string;
  apiKeyId: string;
}

/** Creates a user (verified e-mail, no password). */
export async function createUser(
  knex: Knex,
  email = `user-${unique()}@example.test`,
): Promise<{ userId: string; email: string }> {
  const userId = newId("user");
  await knex("users").insert({ id: userId, email, name: email.split("@")[0], email_verified: true });
  return { userId, email };
}

/** Creates an API key of `userId` bound to `organizationId`; returns the plain key. */
export async function createApiKey(knex: Knex, userId: string, organizationId: string) {
  const apiKey = `skiff_${randomBytes(24).toString("base64url")}`;
  const apiKeyId = newId("apiKey");
  await knex("api_keys").insert({
    id: apiKeyId,
    name: "test",
    start: apiKey.slice(0, 10),
    prefix: "skiff_",
    key: hashApiKey(apiKey),
    reference_id: userId,
    organization_id: organizationId,
  });
  return { apiKey, apiKeyId };
}

/** Adds a new user to `organizationId` with `role`, optionally limited by grants; returns an API key for it. */
export async function addMember(
  knex: Knex,
  organizationId: string,
  role: Role,
  grants: { projectIds?: string[]; applicationIds?: string[] } = {},
): Promise<SeededUser> {
  const user = await createUser(knex);
  const memberId = newId("member");
  await knex("members").insert({ id: memberId, organization_id: organizationId, user_id: user.userId, role });
  const rows = [
    ...(grants.projectIds ?? []).map((p) => ({ id: newId("grant"), member_id: memberId, project_id: p })),
    ...(grants.applicationIds ?? []).map((a) => ({ id: newId("grant"), member_id: memberId, application_id: a })),
  ];
  if (rows.length) await knex("member_grants").insert(rows);
  return { ...user, memberId, ...(await createApiKey(knex, user.userId, organizationId)) };
}

/** Makes existing user `userId` a member of `organizationId` with `role` (no API key). @returns the member id. */
export async function addMembership(knex: Knex, organizationId: string, userId: string, role: Role): Promise<string> {
  const id = newId("member");
  await knex("members").insert({ id, organization_id: organizationId, user_id: userId, role });
  return id;
}

/** Creates an organization on `plan` with an owner (and the owner's API key). */
export async function createOrg(knex: Knex, plan = "plan_unlimited") {
  const organizationId = newId("organization");
  const slug = `org-${unique()}`;
  await knex("organizations").insert({ id: organizationId, name: slug, slug, plan_id: plan });
  const owner = await addMember(knex, organizationId, "owner");
  return { organizationId, owner };
}

/** Shape of a seeded project tree. */
export interface TreeShape {
  environments?: number;
  applicationsPerEnvironment?: number;
  deploymentsPerApplication?: number;
  domainsPerApplication?: number;
  variablesPerApplication?: number;
}

/** Creates `count` projects, each with the given tree under it (bulk inserts). @returns project ids in creation order. */
export async function createProjects(knex: Knex, organizationId: string, count: number, shape: TreeShape = {}) {
  const projects: Record<string, unknown>[] = [];
  const environments: Record<string, unknown>[] = [];
  const applications: Record<string, unknown>[] = [];
  const deployments: Record<string, unknown>[] = [];
  const domains: Record<string, unknown>[] = [];
  const variables: Record<string, unknown>[] = [];
  for (let p = 0; p < count; p++) {
    const projectId = newId("project");
    projects.push({ id: projectId, organization_id: organizationId, name: `project-${unique()}` });
    for (let e = 0; e < (shape.environments ?? 1); e++) {
      const environmentId = newId("environment");
      environments.push({ id: environmentId, project_id: projectId, name: e === 0 ? "production" : `env-${e}` });
      for (let a = 0; a < (shape.applicationsPerEnvironment ?? 0); a++) {
        const applicationId = newId("application");
        applications.push({
          id: applicationId,
          organization_id: organizationId,
          project_id: projectId,
          environment_id: environmentId,
          name: `app-${a}`,
          app_name: `app-${unique()}${unique()}`,
          source_type: "docker",
          source: JSON.stringify({ dockerImage: "nginx:1.27" }),
          build_type: "dockerfile",
        });
        for (let d = 0; d < (shape.deploymentsPerApplication ?? 0); d++) {
          deployments.push({
            id: newId("deployment"),
            application_id: applicationId,
            status: "done",
            title: `deploy ${d}`,
            created_at: new Date(Date.UTC(2026, 0, 1, 0, 0, d)),
          });
        }
        for (let d = 0; d < (shape.domainsPerApplication ?? 0); d++) {
          domains.push({
            id: newId("domain"),
            organization_id: organizationId,
            application_id: applicationId,
            host: `h${unique()}${unique()}.example.test`,
            port: 80,
            https: true,
          });
        }
        for (let v = 0; v < (shape.variablesPerApplication ?? 0); v++) {
          variables.push({
            id: newId("envVar"),
            application_id: applicationId,
            key: `VAR_${v}`,
            value_encrypted: box.encrypt(`value-${v}`),
          });
        }
      }
    }
  }
  const insert = async (table: string, rows: Record<string, unknown>[]) => {
    for (let i = 0; i < rows.length; i += 1000) await knex(table).insert(rows.slice(i, i + 1000));
  };
  await insert("projects", projects);
  await insert("environments", environments);
  await insert("applications", applications);
  await insert("deployments", deployments);
  await insert("domains", domains);
  await insert("environment_variables", variables);
  return projects.map((p) => p.id as string);
}

/**
 * Creates (or replaces) the agent token of a seeded member (as `createAgentToken` does, without the plan check);
 * `expiresAt` in the past makes an expired token. @returns the plain token.
 */
export async function createAgentTokenFor(
  knex: Knex,
  organizationId: string,
  user: { userId: string; memberId: string },
  expiresAt: Date | null = null,
): Promise<string> {
  const secret = generateAgentToken();
  await knex("agent_tokens")
    .insert({
      id: newId("agentToken"),
      organization_id: organizationId,
      user_id: user.userId,
      member_id: user.memberId,
      token_hash: secret.hash,
      prefix: secret.prefix,
      expires_at: expiresAt,
    })
    .onConflict(["organization_id", "user_id"])
    .merge();
  return secret.token;
}

/** Gives a seeded user an e-mail/password account (better-auth `credential` provider) so tests can sign in. */
export async function setPassword(knex: Knex, userId: string, password: string): Promise<void> {
  await knex("accounts").insert({
    id: newId("account"),
    user_id: userId,
    provider_id: "credential",
    account_id: userId,
    password: await hashPassword(password),
  });
}

/** Configures a git provider of `type` in `organizationId`. @returns its id (`gitp_...`). */
export async function createGitProvider(
  knex: Knex,
  organizationId: string,
  type: "github" | "gitlab",
): Promise<string> {
  const id = newId("gitProvider");
  await knex("git_providers").insert({ id, organization_id: organizationId, type, name: `${type}-${unique()}` });
  return id;
}

/** Configures a container registry in `organizationId`. @returns its id (`reg_...`). */
export async function createRegistry(knex: Knex, organizationId: string): Promise<string> {
  const id = newId("registry");
  await knex("container_registries").insert({
    id,
    organization_id: organizationId,
    name: `registry-${unique()}`,
    url: `registry-${unique()}.example.test`,
  });
  return id;
}

/** Stores an SSH key in `organizationId` (private key encrypted with TEST_SECRET). @returns its id (`ssh_...`). */
export async function createSshKey(knex: Knex, organizationId: string): Promise<string> {
  const id = newId("sshKey");
  await knex("ssh_keys").insert({
    id,
    organization_id: organizationId,
    name: `key-${unique()}`,
    public_key: "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIMz4bGl0dGxlIHRlc3Qga2V5IGZvciBza2lmZg test@skiff",
    private_key_encrypted: box.encrypt("-----BEGIN OPENSSH PRIVATE KEY-----\ntest\n-----END OPENSSH PRIVATE KEY-----"),
  });
  return id;
}

/** Creates a plan with the given quotas (null or omitted = unlimited). @returns its id. */
export async function createPlan(
  knex: Knex,
  quotas: {
    projects?: number | null;
    applications?: number | null;
    databases?: number | null;
    domains?: number | null;
  },
): Promise<string> {
  const id = `plan_${unique()}${unique()}`;
  await knex("plans").insert({
    id,
    name: id,
    max_projects: quotas.projects ?? null,
    max_applications: quotas.applications ?? null,
    max_databases: quotas.databases ?? null,
    max_domains: quotas.domains ?? null,
  });
  return id;
}
