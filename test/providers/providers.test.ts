/**
 * Import prerequisites through GraphQL: git providers, container registries and SSH keys are created by owners
 * and admins only; secrets (registry password, SSH private key) are write-only and stored encrypted; an
 * import can use what was created.
 */
import { describe, expect, it } from "vitest";
import { addMember, createOrg } from "../helpers/seed.ts";
import { gql, useTestServer } from "../helpers/server.ts";
import { rest } from "../site-imports/import-helpers.ts";

const t = useTestServer();

const PUBLIC_KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHk0ZXN0LWtleS1mb3Itc2tpZmYtdGVzdHMtb25seQ deploy@skiff";
const PRIVATE_KEY =
  "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----\n";

const CREATE = `mutation($gp: CreateGitProviderInput!, $reg: CreateContainerRegistryInput!, $key: CreateSshKeyInput!) {
  createGitProvider(input: $gp) { id type name }
  createContainerRegistry(input: $reg) { id name url username }
  createSshKey(input: $key) { id name publicKey }
}`;

describe("providers", () => {
  it("lets an admin create a git provider, a registry and an SSH key that an import then uses", async () => {
    const org = await createOrg(t.db.knex);
    const admin = await addMember(t.db.knex, org.organizationId, "admin");
    const organizationId = org.organizationId;
    const res = await gql<{
      createGitProvider: { id: string };
      createContainerRegistry: { id: string };
      createSshKey: { id: string; publicKey: string };
    }>(
      t.skiff.url,
      CREATE,
      {
        gp: { organizationId, type: "github", name: "acme" },
        reg: { organizationId, name: "ghcr", url: "ghcr.io/acme", username: "bot", password: "registry-secret" },
        key: { organizationId, name: "deploy", publicKey: PUBLIC_KEY, privateKey: PRIVATE_KEY },
      },
      { apiKey: admin.apiKey },
    );
    expect(res.errors).toBeUndefined();
    expect(res.data!.createGitProvider).toMatchObject({
      id: expect.stringMatching(/^gitp_/),
      type: "github",
      name: "acme",
    });
    expect(res.data!.createSshKey.publicKey).toBe(PUBLIC_KEY);

    const key = await t.db.knex("ssh_keys").where({ id: res.data!.createSshKey.id }).first();
    expect(key.privateKeyEncrypted).not.toContain("PRIVATE KEY");
    expect(t.skiff.services.secrets.decrypt(key.privateKeyEncrypted)).toBe(PRIVATE_KEY);
    const registry = await t.db
      .knex("container_registries")
      .where({ id: res.data!.createContainerRegistry.id })
      .first();
    expect(t.skiff.services.secrets.decrypt(registry.passwordEncrypted)).toBe("registry-secret");

    const listed = await gql<{ organization: Record<string, Array<Record<string, unknown>>> }>(
      t.skiff.url,
      "query($id: ID!) { organization(id: $id) { gitProviders { id } containerRegistries { url username } sshKeys { name publicKey } } }",
      { id: organizationId },
      { apiKey: admin.apiKey },
    );
    expect(listed.data!.organization).toEqual({
      gitProviders: [{ id: res.data!.createGitProvider.id }],
      containerRegistries: [{ url: "ghcr.io/acme", username: "bot" }],
      sshKeys: [{ name: "deploy", publicKey: PUBLIC_KEY }],
    });

    const imported = await rest<{ status: string }>(
      t.skiff.url,
      "POST",
      "/api/site-import",
      { apiKey: admin.apiKey },
      {
        organizationId,
        name: "uses-providers",
        source: { type: "git", customGitUrl: "git@example.test:a/b.git", customGitSSHKeyId: res.data!.createSshKey.id },
      },
    );
    expect(imported.body.status).toBe("success");
  });

  it("refuses members (FORBIDDEN), foreign organizations (NOT_FOUND) and malformed keys (BAD_USER_INPUT)", async () => {
    const org = await createOrg(t.db.knex);
    const other = await createOrg(t.db.knex);
    const member = await addMember(t.db.knex, org.organizationId, "member");
    const one = "mutation($i: CreateGitProviderInput!) { createGitProvider(input: $i) { id } }";
    const denied = await gql(
      t.skiff.url,
      one,
      { i: { organizationId: org.organizationId, type: "gitlab", name: "x" } },
      { apiKey: member.apiKey },
    );
    expect(denied.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
    const foreign = await gql(
      t.skiff.url,
      one,
      { i: { organizationId: other.organizationId, type: "gitlab", name: "x" } },
      { apiKey: org.owner.apiKey },
    );
    expect(foreign.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
    const bad = await gql(
      t.skiff.url,
      "mutation($i: CreateSshKeyInput!) { createSshKey(input: $i) { id } }",
      { i: { organizationId: org.organizationId, name: "k", publicKey: "not a key", privateKey: "nope" } },
      { apiKey: org.owner.apiKey },
    );
    expect(bad.errors?.[0]?.extensions).toMatchObject({
      code: "BAD_USER_INPUT",
      fieldErrors: { publicKey: [expect.any(String)], privateKey: [expect.any(String)] },
    });
    expect(await t.db.knex("git_providers").where({ organization_id: org.organizationId })).toEqual([]);
  });
});
