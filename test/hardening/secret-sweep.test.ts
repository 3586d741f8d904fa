/**
 * Secret material is absent from the database and the logs. A real `src/main.ts` process
 * (the way `npm start` runs it, LOG_LEVEL=debug: more than production logs) gets, through its public surfaces, a
 * site import with a database password and environment variables (whose deployment renders Secrets), a git import
 * cloning with an SSH private key and pushing to a registry with a password, a webhook (its generated secret), a
 * payment gateway service (the gateway's signing key, from the sandbox gateway) and a docs-host sync with a
 * license key; the deploy URL's token and push webhook secret are generated. Then every planted value is searched for in a full `pg_dump` of the database (schema and data; when
 * the installed pg_dump is older than the server, which it refuses, in every row of every table read as text),
 * in the process's stdout and stderr, in the GraphQL answers that show deployments (manifests, logs) and in
 * `skiff deploy --json`'s output: none may appear. The stored manifests still name each Secret's keys.
 */
import { execFile } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { up as redactStoredManifests } from "../../migrations/20261124200000_redact_deployment_manifests.ts";
import { type SandboxGateway, startSandboxGateway } from "../../sandbox/gateway/sandbox-gateway.ts";
import { REDACTED } from "../../src/modules/deployments/deployment.manifests.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { type SkiffProcess, spawnSkiff } from "../helpers/process.ts";
import { createOrg, type SeededUser } from "../helpers/seed.ts";
import { gql } from "../helpers/server.ts";

const exec = promisify(execFile);
const tag = () => randomBytes(6).toString("hex");

/** The planted values, each unmistakable. */
const PLANTED = {
  databasePassword: `planted-db-password-${tag()}`,
  envValue: `planted-env-value-${tag()}`,
  envValue2: `planted-env-value-${tag()}`,
  registryPassword: `planted-registry-password-${tag()}`,
  sshKeyBody: `plantedsshkeybody${tag()}`,
  licenseKey: `planted-license-key-${tag()}`,
  urlToken: `planted-url-token-${tag()}`,
};
/** Filled in as the server generates them. */
const generated: Record<string, string> = {};

const GATEWAY_KEY = "sandbox-management-key";
let db: TestDatabase;
let sandbox: SandboxGateway;
let skiff: SkiffProcess;
let url: string;
let owner: SeededUser;

beforeAll(async () => {
  sandbox = await startSandboxGateway({ apiKey: GATEWAY_KEY, activationDelayMs: 100 });
  db = await createTestDatabase();
  const org = await createOrg(db.knex);
  owner = org.owner;
  generated.organizationId = org.organizationId;
  skiff = spawnSkiff({
    DATABASE_URL: db.url,
    LOG_LEVEL: "debug",
    SKIFF_BOOTSTRAP: "false",
    SKIFF_GATEWAY_URL: sandbox.url,
    SKIFF_GATEWAY_API_KEY: GATEWAY_KEY,
    SKIFF_OUTBOUND_ALLOW: "127.0.0.1",
    SKIFF_LICENSE_KEY: PLANTED.licenseKey,
    // The instance's own docs sync (every minute by default) replaces its license's registrations with its local
    // list: once it has run, not again during the test, so the registration this test posts stays in the dump.
    SKIFF_LICENSE_SYNC_INTERVAL: "86400",
    SKIFF_HEALTH_INTERVAL: "0",
  });
  const listening = await skiff.waitForLog((r) => String(r.msg).startsWith("Server listening at"));
  // As if the instance had just synchronised (a sync before this line ran before the test's own registration).
  await db.knex("docs_sync_state").insert({ id: 1, last_run_at: new Date() }).onConflict("id").merge(["last_run_at"]);
  url = String(listening.msg).replace("Server listening at ", "");
  sandbox.setEventsUrl(`${url}/api/payment-gateway/events`);
}, 60_000);

afterAll(async () => {
  skiff?.child.kill("SIGTERM");
  await skiff?.exited;
  await sandbox?.close();
  await db?.drop();
});

/** GraphQL as the owner; fails the test on errors. */
async function ok<T>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
  const res = await gql<T>(url, query, variables, { apiKey: owner.apiKey });
  expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
  return res.data!;
}

/** POSTs a site import as the owner; @returns the answer body (status 200 expected). */
async function siteImport(body: Record<string, unknown>): Promise<Record<string, string>> {
  const res = await fetch(`${url}/api/site-import`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${owner.apiKey}` },
    body: JSON.stringify(body),
  });
  const answer = (await res.json()) as Record<string, string>;
  expect(res.status, JSON.stringify(answer)).toBe(200);
  return answer;
}

const DEPLOYMENTS = `query($id: ID!) { application(id: $id) { deployments(first: 10) {
  id status errorMessage manifests logs { text } } } }`;
interface Deployments {
  application: {
    deployments: Array<{
      id: string;
      status: string;
      errorMessage: string | null;
      manifests: Array<{ kind: string; metadata: { name: string }; stringData?: Record<string, string> }> | null;
      logs: Array<{ text: string }>;
    }>;
  };
}

/** Waits until every deployment of application `id` ended; @returns the GraphQL answer (its text too). */
async function endedDeployments(id: string): Promise<{ data: Deployments; text: string }> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const data = await ok<Deployments>(DEPLOYMENTS, { id });
    const all = data.application.deployments;
    if (all.length > 0 && all.every((d) => ["done", "error", "cancelled"].includes(d.status))) {
      return { data, text: JSON.stringify(data) };
    }
    if (Date.now() > deadline) throw new Error(`deployments still running: ${JSON.stringify(all)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** A full dump of the test database as text (see the file comment for when it is not pg_dump's). */
async function dumpDatabase(): Promise<{ how: string; text: string }> {
  const server = Number((await db.knex.raw("show server_version_num")).rows[0].server_version_num);
  const { stdout: version } = await exec("pg_dump", ["--version"]);
  const major = Number(/(\d+)(?:\.\d+)*/.exec(version)?.[1]);
  if (major >= Math.floor(server / 10_000)) {
    const { stdout } = await exec("pg_dump", ["--no-owner", "--dbname", db.url], { maxBuffer: 512 * 1024 * 1024 });
    return { how: `pg_dump ${major}`, text: stdout };
  }
  const tables = (
    await db.knex.raw(
      `select format('%I.%I', schemaname, tablename) as name from pg_tables
       where schemaname not in ('pg_catalog', 'information_schema') order by 1`,
    )
  ).rows as Array<{ name: string }>;
  const parts: string[] = [];
  for (const { name } of tables) {
    const rows = (await db.knex.raw(`select t::text as row from ${name} t`)).rows as Array<{ row: string }>;
    parts.push(`-- ${name}`, ...rows.map((r) => r.row));
  }
  return { how: `every row of ${tables.length} tables (pg_dump ${major} < server ${server})`, text: parts.join("\n") };
}

describe("secret sweep", () => {
  it("no planted or generated secret appears in pg_dump, the logs, the API's deployments or skiff deploy --json", async () => {
    const organizationId = generated.organizationId!;
    // A registry with a password (the first of the organization: builds push there) and an SSH key.
    await ok(`mutation($input: CreateContainerRegistryInput!) { createContainerRegistry(input: $input) { id } }`, {
      input: {
        organizationId,
        name: "acme",
        url: "registry.example.test/acme",
        username: "robot",
        password: PLANTED.registryPassword,
      },
    });
    const privateKey = `-----BEGIN OPENSSH PRIVATE KEY-----\n${PLANTED.sshKeyBody}\n-----END OPENSSH PRIVATE KEY-----`;
    const ssh = await ok<{ createSshKey: { id: string } }>(
      `mutation($input: CreateSshKeyInput!) { createSshKey(input: $input) { id } }`,
      {
        input: {
          organizationId,
          name: "deploy-key",
          publicKey: "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIBk6bTdvZnVjb2JmZ3Bvc2JnY3N0dXZ3eHl6MDEyMzQ1Njc4 ci@acme",
          privateKey,
        },
      },
    );

    // A docker import with a database password and variables; a git import cloning with the SSH key.
    const docker = await siteImport({
      organizationId,
      name: `shop-${tag()}`,
      source: { type: "docker", dockerImage: "nginx:1.27" },
      database: { type: "postgres", name: "shop", user: "shop_user", password: PLANTED.databasePassword },
      envVars: { API_TOKEN: PLANTED.envValue, OTHER: PLANTED.envValue2 },
    });
    const git = await siteImport({
      organizationId,
      name: `git-${tag()}`,
      source: {
        type: "git",
        customGitUrl: "git@git.example.test:acme/shop.git",
        customGitSSHKeyId: ssh.createSshKey.id,
      },
      envVars: { API_TOKEN: PLANTED.envValue },
    });

    // A webhook (its secret is generated and shown once) and a payment gateway service (the gateway's key).
    const hook = await ok<{ createWebhook: { secret: string } }>(
      `mutation($org: ID!, $input: CreateWebhookInput!) { createWebhook(organizationId: $org, input: $input) { secret } }`,
      { org: organizationId, input: { url: "https://127.0.0.1:4899/skiff", events: ["deploy.succeeded"] } },
    );
    generated.webhookSecret = hook.createWebhook.secret;
    const service = await ok<{ createPaymentGatewayService: { id: string } }>(
      `mutation($p: ID!) { createPaymentGatewayService(projectId: $p, name: "shop payments") { id } }`,
      { p: docker.projectId },
    );
    const deadline = Date.now() + 30_000;
    while (!generated.signingKey) {
      const data = await ok<{ project: { paymentGatewayServices: Array<{ id: string; signingKey: string | null }> } }>(
        `query($id: ID!) { project(id: $id) { paymentGatewayServices { id signingKey } } }`,
        { id: docker.projectId },
      );
      const key = data.project.paymentGatewayServices.find((s) => s.id === service.createPaymentGatewayService.id);
      if (key?.signingKey) generated.signingKey = key.signingKey;
      else if (Date.now() > deadline) throw new Error("the merchant was never provisioned");
      else await new Promise((r) => setTimeout(r, 250));
    }

    // The deploy URL's token and the push webhook secret (both generated, shown to owners, stored encrypted).
    const deploySecrets = await ok<{ regenerateDeployWebhookSecret: string; regenerateDeployToken: string }>(
      `mutation($id: ID!) { regenerateDeployWebhookSecret(applicationId: $id) regenerateDeployToken(applicationId: $id) }`,
      { id: git.applicationId },
    );
    generated.deployWebhookSecret = deploySecrets.regenerateDeployWebhookSecret;
    generated.deployToken = new URL(deploySecrets.regenerateDeployToken).pathname.split("/").at(-1)!;
    expect(generated.deployToken.length).toBeGreaterThanOrEqual(40);
    // A deploy through the URL: the token is in the request line a server would log.
    const triggered = await fetch(deploySecrets.regenerateDeployToken.replace(/^https?:\/\/[^/]+/, url), {
      method: "POST",
    });
    expect(triggered.status).toBe(202);
    // Other URLs that carry credentials in their path or query: an invitation link, e-mail verification, a
    // password reset, an OAuth callback (whatever they answer, their request lines are logged).
    for (const path of [
      `/accept-invitation?token=${PLANTED.urlToken}`,
      `/api/auth/verify-email?token=${PLANTED.urlToken}&callbackURL=%2F`,
      `/api/auth/reset-password/${PLANTED.urlToken}?callbackURL=%2F`,
      `/api/auth/callback/github?code=${PLANTED.urlToken}&state=fuzzed-state`,
    ]) {
      await (await fetch(`${url}${path}`, { redirect: "manual" })).arrayBuffer();
    }

    // The docs-host role authenticates a sync with the instance's license key.
    const sync = await fetch(`${url}/api/docs/sync`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${PLANTED.licenseKey}` },
      body: JSON.stringify({
        registrations: [{ hostname: `docs-${tag()}.planted.test`, cloudUrl: "https://a.example.test/o/7" }],
      }),
    });
    expect(sync.status).toBe(200);

    // The deployments ran and stored their manifests: Secrets present, by key, without their values.
    const dockerDeployments = await endedDeployments(docker.applicationId!);
    const gitDeployments = await endedDeployments(git.applicationId!);
    const stored = [...dockerDeployments.data.application.deployments, ...gitDeployments.data.application.deployments];
    for (const d of stored) expect(d.status, d.errorMessage ?? "").toBe("done");
    const secrets = stored.flatMap((d) => d.manifests ?? []).filter((m) => m.kind === "Secret");
    expect(secrets.map((m) => Object.keys(m.stringData ?? {}).sort())).toEqual(
      expect.arrayContaining([
        expect.arrayContaining(["API_TOKEN", "OTHER"]),
        ["password"],
        [".dockerconfigjson"],
        ["id"],
      ]),
    );
    for (const m of secrets) for (const v of Object.values(m.stringData ?? {})) expect(v).toBe(REDACTED);

    // skiff deploy --json (a new deployment of the git application, followed to its end).
    const root = process.cwd();
    const node = existsSync(join(root, "node_modules/.bin/node"))
      ? join(root, "node_modules/.bin/node")
      : process.execPath;
    const cli = await exec(node, [join(root, "clients/cli/main.ts"), "deploy", git.applicationId!, "--json"], {
      env: { ...process.env, SKIFF_URL: url, SKIFF_API_KEY: owner.apiKey, XDG_CONFIG_HOME: join(root, ".data") },
      timeout: 60_000,
    });
    const deployed = JSON.parse(cli.stdout) as { status: string };
    expect(deployed.status.toLowerCase()).toBe("done");

    const dump = await dumpDatabase();
    const values: Record<string, string> = {
      ...PLANTED,
      webhookSecret: generated.webhookSecret,
      signingKey: generated.signingKey,
      deployWebhookSecret: generated.deployWebhookSecret,
      deployToken: generated.deployToken,
      registryAuth: Buffer.from(`robot:${PLANTED.registryPassword}`).toString("base64"),
      licenseSha256: "", // (hashes are fine: listed only to show what is stored instead)
    };
    delete values.licenseSha256;
    const places: Record<string, string> = {
      [dump.how]: dump.text,
      "stdout (logs)": skiff.stdout(),
      stderr: skiff.stderr(),
      "GraphQL deployments": dockerDeployments.text + gitDeployments.text,
      "skiff deploy --json": cli.stdout + cli.stderr,
    };
    // The sweep looks where the values would be: the dump has the rows, the logs have the requests.
    expect(dump.text).toContain(createHash("sha256").update(PLANTED.licenseKey).digest("hex"));
    expect(dump.text).toContain(REDACTED);
    expect(skiff.stdout()).toMatch(/"msg":"request completed"|incoming request/);
    const found: string[] = [];
    for (const [where, text] of Object.entries(places)) {
      for (const [what, value] of Object.entries(values)) {
        const line = text.split("\n").find((l) => l.includes(value));
        if (line !== undefined) found.push(`${what} in ${where}: ${line.slice(0, 400)}`);
      }
    }
    expect(found).toEqual([]);
  }, 120_000);

  it("the migration redacts manifests stored in clear before, keeping keys and every other object", async () => {
    const row = await db.knex("deployments").whereNotNull("manifests").first("id", "manifests");
    const clear = [
      { apiVersion: "v1", kind: "Secret", metadata: { name: "a-env" }, stringData: { K: PLANTED.envValue } },
      { apiVersion: "v1", kind: "Secret", metadata: { name: "a-pw" }, data: { password: "c2VjcmV0" } },
      { apiVersion: "v1", kind: "Service", metadata: { name: "a" }, spec: { ports: [{ port: 80 }] } },
    ];
    await db
      .knex("deployments")
      .where({ id: row.id })
      .update({ manifests: JSON.stringify(clear) });
    await redactStoredManifests(db.knex);
    const after = await db.knex("deployments").where({ id: row.id }).first("manifests");
    expect(after.manifests).toEqual([
      { ...clear[0], stringData: { K: REDACTED } },
      { ...clear[1], data: { password: REDACTED } },
      clear[2],
    ]);
    await redactStoredManifests(db.knex); // idempotent
    expect((await db.knex("deployments").where({ id: row.id }).first("manifests")).manifests).toEqual(after.manifests);
  });
});
