/**
 * Preview and prerequisites (spec: Site import rules 5–6, "Prerequisites outside the request"): preview writes
 * nothing and reports name conflicts, domain availability and source configuration; an import of a request
 * with the same problems fails at the matching step with nothing created; a request that previews valid then
 * imports successfully.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningSkiff } from "../../src/server/start.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { createGitProvider, createOrg, createSshKey } from "../helpers/seed.ts";
import { startTestServer } from "../helpers/server.ts";
import { countResources, dockerRequest, importReadyOrg, rest } from "./import-helpers.ts";

let db: TestDatabase;
let skiff: RunningSkiff;
let withDefaultRegistry: RunningSkiff;
// Platform settings are the same on every instance of one database (an import runs as a job on any of them),
// so the instance with a default registry has a database of its own.
let defaultRegistryDb: TestDatabase;
beforeAll(async () => {
  [db, defaultRegistryDb] = await Promise.all([createTestDatabase(), createTestDatabase()]);
  skiff = await startTestServer(db.url);
  withDefaultRegistry = await startTestServer(defaultRegistryDb.url, {
    SKIFF_DEFAULT_REGISTRY_URL: "registry.platform.test",
  });
});
afterAll(async () => {
  await withDefaultRegistry?.stop();
  await skiff?.stop();
  await Promise.all([db?.drop(), defaultRegistryDb?.drop()]);
});

type Preview = {
  valid: boolean;
  resources: Record<string, unknown>;
  warnings: string[];
  errors: string[];
};
type Result = { status: string; errorStep?: string; errorMessage?: string; projectId: string | null };

describe("preview", () => {
  it("answers the resources it would create, writes nothing, and the same request then imports", async () => {
    const org = await importReadyOrg(db.knex);
    const githubId = await createGitProvider(db.knex, org.organizationId, "github");
    const request = {
      organizationId: org.organizationId,
      name: "blog",
      domain: `blog-${Date.now()}.example.test`,
      database: { type: "mysql", name: "blog", user: "blog", password: "pw" },
      source: { type: "github", repo: "acme/blog", githubId },
      envVars: { DB_PASSWORD: "mine" },
    };
    const before = await countResources(db.knex, org.organizationId);
    const res = await rest<Preview>(
      skiff.url,
      "POST",
      "/api/site-import/preview",
      { apiKey: org.owner.apiKey },
      request,
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      valid: true,
      resources: {
        project: { name: "blog" },
        database: { type: "mysql", name: "blog" },
        application: { name: "blog", sourceType: "github", buildType: "dockerfile" },
        domain: { host: request.domain },
      },
      warnings: expect.arrayContaining(["envVars.DB_PASSWORD overrides the generated value"]),
      errors: [],
    });
    expect(await countResources(db.knex, org.organizationId)).toEqual(before);

    const imported = await rest<Result>(skiff.url, "POST", "/api/site-import", { apiKey: org.owner.apiKey }, request);
    expect(imported.status).toBe(200);
    expect(imported.body.status).toBe("success");
  });

  it("shows null database and domain when not requested", async () => {
    const org = await importReadyOrg(db.knex);
    const res = await rest<Preview>(
      skiff.url,
      "POST",
      "/api/site-import/preview",
      { apiKey: org.owner.apiKey },
      dockerRequest(org.organizationId, { name: "plain" }),
    );
    expect(res.body.resources).toEqual({
      project: { name: "plain" },
      database: null,
      application: { name: "plain", sourceType: "docker", buildType: "dockerfile" },
      domain: null,
    });
  });

  it("reports a name conflict and a domain in use (even another organization's) — and import fails on them", async () => {
    const org = await importReadyOrg(db.knex);
    const other = await importReadyOrg(db.knex);
    const host = `taken-${Date.now()}.example.test`;
    await rest(
      skiff.url,
      "POST",
      "/api/site-import",
      { apiKey: other.owner.apiKey },
      dockerRequest(other.organizationId, { domain: host }),
    );
    await rest(
      skiff.url,
      "POST",
      "/api/site-import",
      { apiKey: org.owner.apiKey },
      dockerRequest(org.organizationId, { name: "dup" }),
    );

    const request = dockerRequest(org.organizationId, { name: "dup", domain: host });
    const preview = await rest<Preview>(
      skiff.url,
      "POST",
      "/api/site-import/preview",
      { apiKey: org.owner.apiKey },
      request,
    );
    expect(preview.body.valid).toBe(false);
    expect(preview.body.errors).toEqual([
      'A project named "dup" already exists in this organization',
      `Domain ${host} is already in use`,
    ]);

    const before = await countResources(db.knex, org.organizationId);
    const imported = await rest<Result>(skiff.url, "POST", "/api/site-import", { apiKey: org.owner.apiKey }, request);
    expect(imported.status).toBe(422);
    expect(imported.body).toMatchObject({ status: "failed", errorStep: "project_creation", projectId: null });
    expect(imported.body.errorMessage).toContain('A project named "dup" already exists');
    const after = await countResources(db.knex, org.organizationId);
    expect({ ...after, imports: before.imports }).toEqual(before);

    const domainOnly = await rest<Result>(
      skiff.url,
      "POST",
      "/api/site-import",
      { apiKey: org.owner.apiKey },
      dockerRequest(org.organizationId, { domain: host }),
    );
    expect(domainOnly.status).toBe(422);
    expect(domainOnly.body).toMatchObject({
      status: "failed",
      errorStep: "domain_creation",
      errorMessage: `Domain ${host} is already in use`,
    });
  });

  it("checks git providers: missing, of the wrong kind, or another organization's", async () => {
    const org = await importReadyOrg(db.knex);
    const other = await createOrg(db.knex);
    const gitlabId = await createGitProvider(db.knex, org.organizationId, "gitlab");
    const foreignGithub = await createGitProvider(db.knex, other.organizationId, "github");
    const github = (githubId: string) => ({
      organizationId: org.organizationId,
      name: `gh-${githubId.slice(-6)}`,
      source: { type: "github", repo: "a/b", githubId },
    });
    const expectations: Array<[unknown, string]> = [
      [github("gitp_missing"), "GitHub provider gitp_missing is not configured in this organization (source.githubId)"],
      [github(gitlabId), `Git provider ${gitlabId} is a GitLab provider; source.githubId needs a GitHub provider`],
      [
        github(foreignGithub),
        `GitHub provider ${foreignGithub} is not configured in this organization (source.githubId)`,
      ],
      [
        {
          organizationId: org.organizationId,
          name: "lab",
          source: { type: "gitlab", repo: "a/b", gitlabId: "gitp_nope" },
        },
        "GitLab provider gitp_nope is not configured in this organization (source.gitlabId)",
      ],
    ];
    for (const [request, message] of expectations) {
      const preview = await rest<Preview>(
        skiff.url,
        "POST",
        "/api/site-import/preview",
        { apiKey: org.owner.apiKey },
        request,
      );
      expect(preview.body).toMatchObject({ valid: false, errors: [message] });
      const imported = await rest<Result>(skiff.url, "POST", "/api/site-import", { apiKey: org.owner.apiKey }, request);
      expect(imported.status).toBe(422);
      expect(imported.body).toMatchObject({
        status: "failed",
        errorStep: "application_creation",
        errorMessage: message,
      });
    }
    expect((await countResources(db.knex, org.organizationId)).projects).toBe(0);
  });

  it("checks the SSH key belongs to the organization, and warns about key/URL mismatches", async () => {
    const org = await importReadyOrg(db.knex);
    const other = await createOrg(db.knex);
    const foreignKey = await createSshKey(db.knex, other.organizationId);
    const ownKey = await createSshKey(db.knex, org.organizationId);
    const git = (key: string | undefined, url = "git@git.example.test:a/b.git") => ({
      organizationId: org.organizationId,
      name: "private",
      source: { type: "git", customGitUrl: url, ...(key && { customGitSSHKeyId: key }) },
    });
    const bad = await rest<Preview>(
      skiff.url,
      "POST",
      "/api/site-import/preview",
      { apiKey: org.owner.apiKey },
      git(foreignKey),
    );
    expect(bad.body.errors).toEqual([
      `SSH key ${foreignKey} is not stored in this organization (source.customGitSSHKeyId)`,
    ]);
    const noKey = await rest<Preview>(
      skiff.url,
      "POST",
      "/api/site-import/preview",
      { apiKey: org.owner.apiKey },
      git(undefined),
    );
    expect(noKey.body.valid).toBe(true);
    expect(noKey.body.warnings).toEqual([expect.stringContaining("SSH clone URL without source.customGitSSHKeyId")]);
    const https = await rest<Preview>(
      skiff.url,
      "POST",
      "/api/site-import/preview",
      { apiKey: org.owner.apiKey },
      git(ownKey, "https://git.example.test/a/b.git"),
    );
    expect(https.body.valid).toBe(true);
    expect(https.body.warnings).toEqual([expect.stringContaining("used only with SSH clone URLs")]);
  });

  it("requires a container registry: the organization's or the platform default", async () => {
    const org = await createOrg(db.knex);
    const request = dockerRequest(org.organizationId);
    const preview = await rest<Preview>(
      skiff.url,
      "POST",
      "/api/site-import/preview",
      { apiKey: org.owner.apiKey },
      request,
    );
    expect(preview.body.valid).toBe(false);
    expect(preview.body.errors).toEqual([expect.stringContaining("No container registry")]);
    const failed = await rest<Result>(skiff.url, "POST", "/api/site-import", { apiKey: org.owner.apiKey }, request);
    expect(failed.body).toMatchObject({ status: "failed", errorStep: "application_creation" });

    const orgWithoutRegistry = await createOrg(defaultRegistryDb.knex);
    const viaDefault = await rest<Result>(
      withDefaultRegistry.url,
      "POST",
      "/api/site-import",
      { apiKey: orgWithoutRegistry.owner.apiKey },
      dockerRequest(orgWithoutRegistry.organizationId),
    );
    expect(viaDefault.status).toBe(200);
  });
});
