/**
 * Successful site imports end to end (spec: Import request, Import result, Automatic environment variables):
 * every source type with its defaults, databases and their generated variables (encrypted at rest), domains,
 * the queued deployment, the REST and GraphQL shapes, the three credential kinds, and roles.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSecretBox } from "../../src/db/secrets.ts";
import type { RunningSkiff } from "../../src/server/start.ts";
import { namespaceOf } from "../../src/shared/tenant-namespace.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { addMember, createGitProvider, createSshKey, setPassword, TEST_SECRET } from "../helpers/seed.ts";
import { gql, startTestServer } from "../helpers/server.ts";
import { countResources, dockerRequest, importReadyOrg, rest } from "./import-helpers.ts";

let db: TestDatabase;
let skiff: RunningSkiff;
const box = createSecretBox(TEST_SECRET);
beforeAll(async () => {
  db = await createTestDatabase();
  skiff = await startTestServer(db.url, { SKIFF_CLUSTER_DOMAIN: "svc.test.local" });
});
afterAll(async () => {
  await skiff?.stop();
  await db?.drop();
});

/** Decrypted environment variables of an application. */
async function envOf(applicationId: string): Promise<Record<string, string>> {
  const rows = await db.knex("environment_variables").where({ application_id: applicationId });
  return Object.fromEntries(rows.map((r) => [r.key, box.decrypt(r.valueEncrypted)]));
}

describe("POST /api/site-import", () => {
  it("imports a docker image with a postgres database: project, production, database, app, variables, deployment", async () => {
    const org = await importReadyOrg(db.knex);
    const request = dockerRequest(org.organizationId, {
      name: "Shop Front",
      database: { type: "postgres", name: "shop", user: "shop_user", password: "p@ss:w/rd?#&" },
      envVars: { APP_ENV: "production" },
      port: 3000,
    });
    const res = await rest(skiff.url, "POST", "/api/site-import", { apiKey: org.owner.apiKey }, request);
    expect(res.status).toBe(200);
    const body = res.body as Record<string, string>;
    expect(body).toEqual({
      importId: expect.stringMatching(/^imp_/),
      status: "success",
      projectId: expect.stringMatching(/^prj_/),
      applicationId: expect.stringMatching(/^app_/),
      databaseId: expect.stringMatching(/^db_/),
      databaseType: "postgres",
      databaseServiceHost: expect.stringMatching(
        /^shop-front-[0-9a-z]{6}-db\.skiff-org-[0-9a-z]{26}\.svc\.test\.local$/,
      ),
    });

    const project = await db.knex("projects").where({ id: body.projectId }).first();
    expect(project).toMatchObject({ name: "Shop Front", organizationId: org.organizationId });
    const envs = await db.knex("environments").where({ project_id: body.projectId });
    expect(envs.map((e) => e.name)).toEqual(["production"]);
    const app = await db.knex("applications").where({ id: body.applicationId }).first();
    expect(app).toMatchObject({
      name: "Shop Front",
      sourceType: "docker",
      buildType: "dockerfile",
      port: 3000,
      environmentId: envs[0].id,
      source: { dockerImage: "nginx:1.27" },
    });
    // The database's Service in the organization's namespace (docs/deployments.md "Tenant namespaces").
    expect(body.databaseServiceHost).toBe(`${app.appName}-db.${namespaceOf(org.organizationId)}.svc.test.local`);
    const database = await db.knex("databases").where({ id: body.databaseId }).first();
    expect(database).toMatchObject({
      type: "postgres",
      name: "shop",
      username: "shop_user",
      serviceHost: body.databaseServiceHost,
    });
    expect(database.passwordEncrypted).not.toContain("p@ss");
    expect(box.decrypt(database.passwordEncrypted)).toBe("p@ss:w/rd?#&");

    const host = body.databaseServiceHost;
    expect(await envOf(body.applicationId!)).toEqual({
      DB_HOST: host,
      DB_DATABASE: "shop",
      DB_USERNAME: "shop_user",
      DB_PASSWORD: "p@ss:w/rd?#&",
      DATABASE_URL: `postgresql://shop_user:p%40ss%3Aw%2Frd%3F%23%26@${host}:5432/shop`,
      APP_ENV: "production",
    });
    const stored = await db.knex("environment_variables").where({ application_id: body.applicationId });
    for (const v of stored) expect(v.valueEncrypted).toMatch(/^v1\./);

    const deployments = await db.knex("deployments").where({ application_id: body.applicationId });
    expect(deployments).toHaveLength(1);
    expect(deployments[0]).toMatchObject({ trigger: "import" });
    expect(deployments[0].status).toMatch(/^(queued|running|done)$/); // the deployments.run job picks it up at once
    expect(deployments[0].title).toContain("Shop Front");

    const record = await db.knex("site_imports").where({ id: body.importId }).first();
    expect(record).toMatchObject({ status: "success", attempts: 1, errorStep: null, deploymentId: deployments[0].id });
    expect(record.inputEncrypted).not.toContain("p@ss");
  });

  it("imports a github source with mariadb and a domain, applying defaults; envVars override generated values", async () => {
    const org = await importReadyOrg(db.knex);
    const githubId = await createGitProvider(db.knex, org.organizationId, "github");
    const host = `shop-${Date.now()}.example.test`;
    const res = await rest(
      skiff.url,
      "POST",
      "/api/site-import",
      { apiKey: org.owner.apiKey },
      {
        organizationId: org.organizationId,
        name: "wp",
        domain: host.toUpperCase(),
        database: { type: "mariadb", name: "wp", user: "wp", password: "secret" },
        source: { type: "github", repo: "acme/wordpress", githubId },
        envVars: { DB_HOST: "override.example.test" },
      },
    );
    expect(res.status).toBe(200);
    const body = res.body as Record<string, string>;
    expect(body).toMatchObject({
      status: "success",
      databaseType: "mariadb",
      domainId: expect.stringMatching(/^dom_/),
    });
    const app = await db.knex("applications").where({ id: body.applicationId }).first();
    expect(app).toMatchObject({
      sourceType: "github",
      buildType: "dockerfile",
      port: 80,
      source: { repo: "acme/wordpress", branch: "main", buildPath: "/", gitProviderId: githubId },
    });
    expect(await envOf(body.applicationId!)).toEqual({
      DB_HOST: "override.example.test",
      DB_DATABASE: "wp",
      DB_USERNAME: "wp",
      DB_PASSWORD: "secret",
      DB_PORT: "3306",
      DB_CONNECTION: "mariadb",
    });
    const domain = await db.knex("domains").where({ id: body.domainId }).first();
    expect(domain).toMatchObject({ host, applicationId: body.applicationId, https: true });
  });

  it("sets DB_PORT/DB_CONNECTION for mysql and MONGO_URL for mongodb", async () => {
    const org = await importReadyOrg(db.knex);
    const mysql = await rest(
      skiff.url,
      "POST",
      "/api/site-import",
      { apiKey: org.owner.apiKey },
      dockerRequest(org.organizationId, { database: { type: "mysql", name: "m", user: "u", password: "pw" } }),
    );
    const mysqlEnv = await envOf((mysql.body as Record<string, string>).applicationId!);
    expect(mysqlEnv).toMatchObject({ DB_PORT: "3306", DB_CONNECTION: "mysql" });
    expect(mysqlEnv).not.toHaveProperty("DATABASE_URL");

    const mongo = await rest(
      skiff.url,
      "POST",
      "/api/site-import",
      { apiKey: org.owner.apiKey },
      dockerRequest(org.organizationId, { database: { type: "mongodb", name: "docs", user: "mo", password: "a b@c" } }),
    );
    const body = mongo.body as Record<string, string>;
    const env = await envOf(body.applicationId!);
    expect(env.MONGO_URL).toBe(`mongodb://mo:a%20b%40c@${body.databaseServiceHost}:27017/docs`);
    expect(env).not.toHaveProperty("DB_PORT");
    expect(Object.keys(env).sort()).toEqual(["DB_DATABASE", "DB_HOST", "DB_PASSWORD", "DB_USERNAME", "MONGO_URL"]);
  });

  it("imports gitlab and git (with an SSH key) sources with their settings", async () => {
    const org = await importReadyOrg(db.knex);
    const gitlabId = await createGitProvider(db.knex, org.organizationId, "gitlab");
    const sshKeyId = await createSshKey(db.knex, org.organizationId);
    const gitlab = await rest(
      skiff.url,
      "POST",
      "/api/site-import",
      { apiKey: org.owner.apiKey },
      {
        organizationId: org.organizationId,
        name: "lab",
        source: {
          type: "gitlab",
          repo: "group/sub/app",
          gitlabId,
          branch: "develop",
          buildPath: "/web",
          buildType: "nixpacks",
        },
      },
    );
    expect(gitlab.status).toBe(200);
    const labApp = await db
      .knex("applications")
      .where({ id: (gitlab.body as Record<string, string>).applicationId })
      .first();
    expect(labApp).toMatchObject({
      sourceType: "gitlab",
      buildType: "nixpacks",
      source: { repo: "group/sub/app", branch: "develop", buildPath: "/web", gitProviderId: gitlabId },
    });

    const git = await rest(
      skiff.url,
      "POST",
      "/api/site-import",
      { apiKey: org.owner.apiKey },
      {
        organizationId: org.organizationId,
        name: "private",
        source: { type: "git", customGitUrl: "git@git.example.test:acme/private.git", customGitSSHKeyId: sshKeyId },
      },
    );
    expect(git.status).toBe(200);
    const gitApp = await db
      .knex("applications")
      .where({ id: (git.body as Record<string, string>).applicationId })
      .first();
    expect(gitApp.source).toEqual({
      customGitUrl: "git@git.example.test:acme/private.git",
      customGitSSHKeyId: sshKeyId,
      branch: "main",
      buildPath: "/",
    });
  });

  it("answers the same through GraphQL importSite, with the full record", async () => {
    const org = await importReadyOrg(db.knex);
    const res = await gql<{ importSite: Record<string, unknown> & { siteImport: Record<string, unknown> } }>(
      skiff.url,
      `mutation($input: SiteImportInput!) { importSite(input: $input) {
        importId status projectId applicationId databaseId domainId errorStep errorMessage
        siteImport { id status attempts inputConfig project { name environments { name } } application { name domains { host } } } } }`,
      { input: dockerRequest(org.organizationId, { name: "gql-site", domain: `gql-${Date.now()}.example.test` }) },
      { apiKey: org.owner.apiKey },
    );
    expect(res.errors).toBeUndefined();
    const result = res.data!.importSite;
    expect(result).toMatchObject({ status: "success", databaseId: null, errorStep: null, errorMessage: null });
    expect(result.siteImport).toMatchObject({
      id: result.importId,
      status: "success",
      attempts: 1,
      project: { name: "gql-site", environments: [{ name: "production" }] },
      application: { name: "gql-site", domains: [{ host: expect.stringMatching(/^gql-/) }] },
      inputConfig: { name: "gql-site", port: 80, envVars: {}, source: { type: "docker", buildType: "dockerfile" } },
    });
  });

  it("accepts x-api-key and a session cookie; 401 { error } without valid credentials", async () => {
    const org = await importReadyOrg(db.knex);
    const viaHeader = await rest(
      skiff.url,
      "POST",
      "/api/site-import",
      { apiKey: org.owner.apiKey, header: "x-api-key" },
      dockerRequest(org.organizationId),
    );
    expect(viaHeader.status).toBe(200);

    await setPassword(db.knex, org.owner.userId, "owner-password");
    const signIn = await fetch(`${skiff.url}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: org.owner.email, password: "owner-password" }),
    });
    expect(signIn.status).toBe(200);
    const cookie = signIn.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    const viaCookie = await rest(skiff.url, "POST", "/api/site-import", { cookie }, dockerRequest(org.organizationId));
    expect(viaCookie.status).toBe(200);

    for (const auth of [{}, { apiKey: "skiff_wrong" }, { apiKey: "skiff_wrong", header: "x-api-key" as const }]) {
      const res = await rest(skiff.url, "POST", "/api/site-import", auth, dockerRequest(org.organizationId));
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: expect.any(String) });
    }
    for (const path of ["/api/site-import", "/api/site-import/imp_x"]) {
      const res = await rest(skiff.url, "GET", path);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: expect.any(String) });
    }
    expect(
      (await rest(skiff.url, "POST", "/api/site-import/preview", {}, dockerRequest(org.organizationId))).status,
    ).toBe(401);
  });

  it("lets admins import; members get 403 and nothing is written; another organization is 404", async () => {
    const org = await importReadyOrg(db.knex);
    const admin = await addMember(db.knex, org.organizationId, "admin");
    const member = await addMember(db.knex, org.organizationId, "member");
    expect(
      (await rest(skiff.url, "POST", "/api/site-import", { apiKey: admin.apiKey }, dockerRequest(org.organizationId)))
        .status,
    ).toBe(200);
    const before = await countResources(db.knex, org.organizationId);
    const denied = await rest(
      skiff.url,
      "POST",
      "/api/site-import",
      { apiKey: member.apiKey },
      dockerRequest(org.organizationId),
    );
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual({ error: expect.stringContaining("import:run") });
    const preview = await rest(
      skiff.url,
      "POST",
      "/api/site-import/preview",
      { apiKey: member.apiKey },
      dockerRequest(org.organizationId),
    );
    expect(preview.status).toBe(403);
    expect(await countResources(db.knex, org.organizationId)).toEqual(before);

    const other = await importReadyOrg(db.knex);
    const foreign = await rest(
      skiff.url,
      "POST",
      "/api/site-import",
      { apiKey: org.owner.apiKey },
      dockerRequest(other.organizationId),
    );
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ error: expect.any(String) });
    expect((await countResources(db.knex, other.organizationId)).imports).toBe(0);
  });
});
