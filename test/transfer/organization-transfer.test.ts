/**
 * The organization export (docs/organization-transfer.md) on a real server and database: an organization seeded with
 * every kind of resource (projects, environments, applications with source, build and deploy settings, domains,
 * variables, databases, payment gateway services, webhook endpoints, the docs theme and hostname, members with
 * grants) is exported through `GET /api/organizations/{id}/export`, GraphQL `organizationExport` and `skiff export`.
 * The bundle validates against the committed JSON Schema (docs/schemas/organization-bundle.schema.json, equal to the
 * one generated from the zod definition); secrets decrypt with the recipient's identity or the passphrase and are
 * absent without a key; no planted secret is in clear anywhere in the bundle; two exports are equal apart from the
 * time and the ciphertext; the same organization on another instance (another database, another SKIFF_SECRET)
 * exports the same bundle apart from ids; admins and members are refused (403), another organization's owner gets
 * 404, a malformed key 400. The import plan (`POST /api/organizations/{id}/import-plan`, `skiff import-plan`) of that
 * bundle finds everything existing in the same configuration on the other instance, and in another organization
 * names each creation and conflict (a project's settings, hosts taken, a plan quota) with a warning per secret left
 * empty without a key.
 */
import { randomBytes } from "node:crypto";
import { chmod, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { generateIdentity, identityToRecipient } from "age-encryption";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newId } from "../../src/db/ids.ts";
import { createSecretBox } from "../../src/db/secrets.ts";
import { bundleJsonSchema, type OrganizationBundle } from "../../src/modules/transfer/bundle.schema.ts";
import { decryptSecrets } from "../../src/modules/transfer/bundle-secrets.ts";
import type { RunningSkiff } from "../../src/server/start.ts";
import { cliEnv, runCli } from "../helpers/cli-runner.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { createOrg, createRegistry, TEST_SECRET } from "../helpers/seed.ts";
import { gql, startTestServer } from "../helpers/server.ts";
import { plantSecrets, type Seeded, seedOrganization } from "./seed-organization.ts";

/** A second instance's own encryption key: the same organization's secrets are stored differently there. */
const OTHER_SECRET = "other-secret-other-secret-other-secret-42";

const tag = randomBytes(3).toString("hex");
/** Planted secrets: none may appear in clear in a bundle. */
const planted = plantSecrets();

let dbA: TestDatabase;
let dbB: TestDatabase;
let a: RunningSkiff;
let b: RunningSkiff;
let seeded: Seeded;
/** The same organization seeded on instance B (by the round-trip test). */
let onB: Seeded;
let identity: string;
let recipient: string;

beforeAll(async () => {
  [dbA, dbB] = await Promise.all([createTestDatabase(), createTestDatabase()]);
  [a, b] = await Promise.all([startTestServer(dbA.url), startTestServer(dbB.url, { SKIFF_SECRET: OTHER_SECRET })]);
  seeded = await seedOrganization(dbA.knex, createSecretBox(TEST_SECRET), { tag, planted });
  identity = await generateIdentity();
  recipient = await identityToRecipient(identity);
}, 60_000);
afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await Promise.all([dbA?.drop(), dbB?.drop()]);
});

/** `GET /api/organizations/{id}/export` on `server`. */
async function exportOf(
  server: RunningSkiff,
  organizationId: string,
  apiKey: string,
  opts: { recipient?: string; passphrase?: string } = {},
) {
  const query = opts.recipient ? `?recipient=${encodeURIComponent(opts.recipient)}` : "";
  const res = await fetch(`${server.url}/api/organizations/${organizationId}/export${query}`, {
    headers: {
      authorization: `Bearer ${apiKey}`,
      ...(opts.passphrase ? { "x-skiff-export-passphrase": opts.passphrase } : {}),
    },
  });
  const text = await res.text();
  return {
    status: res.status,
    headers: res.headers,
    text,
    body: JSON.parse(text) as OrganizationBundle & Record<string, unknown>,
  };
}

/** The bundle without what differs between two exports of the same configuration (time, ids, ciphertext). */
function comparable(bundle: OrganizationBundle): Record<string, unknown> {
  return {
    ...bundle,
    exportedAt: "",
    organization: { ...bundle.organization, id: "", slug: "" },
    secrets: { ...bundle.secrets, ciphertext: "" },
  };
}

/** Every planted secret found in clear in `text`. */
const leaks = (text: string) =>
  [...Object.values(planted), "PLANTED-deploy-token", "PLANTED-push-secret"].filter((s) => text.includes(s));

describe("organization export", () => {
  it("exports every kind of resource, with secrets encrypted to a recipient, valid against the committed schema", async () => {
    const res = await exportOf(a, seeded.organizationId, seeded.ownerKey, { recipient });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toMatch(/attachment; filename=".*\.skiff-bundle\.json"/);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(leaks(res.text)).toEqual([]);

    const committed = JSON.parse(await readFile("docs/schemas/organization-bundle.schema.json", "utf8"));
    expect(committed).toEqual(bundleJsonSchema());
    const validate = new Ajv2020({ strict: false }).compile(committed);
    expect(validate(res.body), JSON.stringify(validate.errors)).toBe(true);

    const bundle = res.body;
    expect(bundle).toMatchObject({
      format: "skiff.organization-bundle",
      version: 1,
      organization: { name: `Shop ${tag}` },
    });
    expect(bundle.projects.map((p) => p.name)).toEqual([`blog-${tag}`, `shop-${tag}`]);
    const shop = bundle.projects[1]!;
    expect(shop.description).toBe("The web shop");
    expect(shop.environments.map((e) => e.name)).toEqual(["production", "staging"]);
    const web = shop.environments[0]!.applications[0]!;
    expect(web).toEqual({
      name: "web",
      sourceType: "github",
      // The git provider id is bound to the instance: left out.
      source: { repo: "acme/shop", branch: "main", buildPath: "/" },
      buildType: "nixpacks",
      port: 3000,
      deploySettings: {
        autoDeploy: true,
        branchFilter: "release/*",
        watchPaths: ["src/**", "package.json"],
        healthPath: "/healthz",
        requireSignature: true,
      },
      domains: [
        { host: `shop-${tag}.example.test`, port: null, https: true },
        { host: `www-${tag}.example.test`, port: 8080, https: false },
      ],
      variables: [
        { key: "API_KEY", secret: `env:shop-${tag}/production/web/API_KEY` },
        { key: "DATABASE_URL", secret: `env:shop-${tag}/production/web/DATABASE_URL` },
      ],
    });
    expect(shop.environments[1]!.applications[0]).toMatchObject({
      name: "web",
      sourceType: "docker",
      source: { dockerImage: "nginx:1.27" },
    });
    expect(shop.environments[0]!.databases).toEqual([
      { type: "postgres", name: "shopdb", username: "shop", password: `database:shop-${tag}/production/shopdb` },
    ]);
    expect(shop.paymentGatewayServices).toEqual([
      { name: "checkout", webhookUrl: "https://shop.example.test/payments" },
    ]);
    expect(bundle.webhookEndpoints).toEqual([
      {
        url: "https://hooks.example.test/skiff",
        events: ["course_created", "user_signed_up"],
        isActive: false,
        description: "CI notifications",
        secret: "webhook:https://hooks.example.test/skiff",
      },
    ]);
    expect(bundle.docsTheme).toMatchObject({
      siteName: "Shop docs",
      customCss: ".hero { color: red }",
      hostname: expect.stringMatching(/^docs-/),
    });
    expect(bundle.members).toEqual([
      { email: seeded.ownerEmail, role: "owner", grants: [] },
      { email: seeded.adminEmail, role: "admin", grants: [] },
      {
        email: seeded.memberEmail,
        role: "member",
        grants: expect.arrayContaining([
          { project: `blog-${tag}` },
          { project: `shop-${tag}`, environment: "production", application: "web" },
        ]),
      },
    ]);

    expect(bundle.secrets).toMatchObject({ encryption: "age", recipient: "x25519", count: 5 });
    // A bundle made is a sensitive read: one audit entry.
    const entry = await dbA
      .knex("audit_events")
      .where({ organization_id: seeded.organizationId, action: "organization.export" })
      .first("surface", "outcome", "target_ids");
    expect(entry).toMatchObject({ surface: "REST", outcome: "ok", targetIds: [seeded.organizationId] });

    const secrets = await decryptSecrets(bundle.secrets.ciphertext!, { identity });
    expect(secrets).toEqual({
      [`env:shop-${tag}/production/web/API_KEY`]: planted.apiKey,
      [`env:shop-${tag}/production/web/DATABASE_URL`]: planted.dsn,
      [`env:blog-${tag}/production/worker/EMPTY`]: "",
      [`database:shop-${tag}/production/shopdb`]: planted.dbPassword,
      "webhook:https://hooks.example.test/skiff": planted.webhookSecret,
    });
    // Another identity does not open it.
    await expect(decryptSecrets(bundle.secrets.ciphertext!, { identity: await generateIdentity() })).rejects.toThrow(
      /does not decrypt/,
    );
  });

  it("leaves secrets out without a key and says so; encrypts to a passphrase given in a header", async () => {
    const bare = await exportOf(a, seeded.organizationId, seeded.ownerKey);
    expect(bare.status).toBe(200);
    expect(bare.body.secrets).toEqual({
      encryption: "none",
      recipient: null,
      count: 5,
      ciphertext: null,
      note: "5 secret(s) left out: no recipient or passphrase was given; they import empty",
    });
    expect(leaks(bare.text)).toEqual([]);

    const passphrase = `correct horse battery ${tag}`;
    // The passphrase's key derivation (seconds of CPU) runs off the server's event loop (in this process).
    const loop = monitorEventLoopDelay({ resolution: 10 });
    loop.enable();
    const sealed = await exportOf(a, seeded.organizationId, seeded.ownerKey, { passphrase });
    loop.disable();
    expect(loop.max / 1e6).toBeLessThan(1_000);
    expect(sealed.status).toBe(200);
    expect(sealed.body.secrets).toMatchObject({ encryption: "age", recipient: "passphrase", count: 5 });
    expect(leaks(sealed.text)).toEqual([]);
    expect(sealed.text).not.toContain(passphrase);
    const secrets = await decryptSecrets(sealed.body.secrets.ciphertext!, { passphrase });
    expect(secrets[`database:shop-${tag}/production/shopdb`]).toBe(planted.dbPassword);
    // Apart from the time and the secrets part, the bundles are the same document.
    expect({ ...comparable(sealed.body), secrets: null }).toEqual({ ...comparable(bare.body), secrets: null });
  }, 30_000);

  it("exports the same bundle twice, and the same organization on another instance alike apart from ids", async () => {
    const first = await exportOf(a, seeded.organizationId, seeded.ownerKey, { recipient });
    const again = await exportOf(a, seeded.organizationId, seeded.ownerKey, { recipient });
    expect(comparable(again.body)).toEqual(comparable(first.body));
    expect(again.body.secrets.ciphertext).not.toBe(first.body.secrets.ciphertext);

    // Instance B: other ids, another SKIFF_SECRET, the same configuration and people.
    onB = await seedOrganization(dbB.knex, createSecretBox(OTHER_SECRET), {
      tag,
      planted,
      people: { owner: seeded.ownerEmail, admin: seeded.adminEmail, member: seeded.memberEmail },
    });
    const fromB = await exportOf(b, onB.organizationId, onB.ownerKey, { recipient });
    expect(fromB.status).toBe(200);
    expect(fromB.body.organization.id).toBe(onB.organizationId);
    const normalised = (x: OrganizationBundle) => {
      const c = comparable(x) as OrganizationBundle;
      // The docs hostname is unique per seed (unique platform-wide); everything else is equal.
      return { ...c, docsTheme: { ...c.docsTheme, hostname: "" } };
    };
    expect(normalised(fromB.body)).toEqual(normalised(first.body));
    expect(await decryptSecrets(fromB.body.secrets.ciphertext!, { identity })).toEqual(
      await decryptSecrets(first.body.secrets.ciphertext!, { identity }),
    );
  });

  it("answers the same bundle through GraphQL", async () => {
    const res = await gql<{ organizationExport: OrganizationBundle }>(
      a.url,
      "query($org: ID!) { organizationExport(organizationId: $org) }",
      { org: seeded.organizationId },
      { apiKey: seeded.ownerKey },
    );
    expect(res.errors).toBeUndefined();
    const rest = await exportOf(a, seeded.organizationId, seeded.ownerKey);
    expect(comparable(res.data!.organizationExport)).toEqual(comparable(rest.body));
  });

  it("refuses admins and members (403), another organization's owner (404) and a malformed key (400), each audited", async () => {
    const refusedIn = async (organizationId: string) =>
      Number(
        (
          await dbA
            .knex("audit_events")
            .where({ organization_id: organizationId, action: "organization.export", outcome: "refused" })
            .count({ n: "*" })
        )[0]!.n,
      );
    const before = await refusedIn(seeded.organizationId);
    for (const key of [seeded.adminKey, seeded.memberKey]) {
      const res = await exportOf(a, seeded.organizationId, key);
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ code: "FORBIDDEN" });
      expect(leaks(res.text)).toEqual([]);
    }
    const other = await createOrg(dbA.knex);
    const foreign = await exportOf(a, seeded.organizationId, other.owner.apiKey);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toMatchObject({ code: "NOT_FOUND" });
    const missing = await exportOf(a, newId("organization"), other.owner.apiKey);
    expect(missing.status).toBe(404);

    const bad = await exportOf(a, seeded.organizationId, seeded.ownerKey, { recipient: "age1notakey" });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: "BAD_USER_INPUT", fieldErrors: { recipient: [expect.any(String)] } });
    const short = await exportOf(a, seeded.organizationId, seeded.ownerKey, { passphrase: "short" });
    expect(short.status).toBe(400);
    expect(short.body).toMatchObject({ fieldErrors: { passphrase: [expect.any(String)] } });
    const both = await exportOf(a, seeded.organizationId, seeded.ownerKey, {
      recipient,
      passphrase: "long enough passphrase",
    });
    expect(both.status).toBe(400);
    // Every refusal leaves one entry: in the organization's log, or in the caller's own when it was not found.
    expect((await refusedIn(seeded.organizationId)) - before).toBe(5);
    expect(await refusedIn(other.organizationId)).toBe(2);
  });

  it("writes the bundle with `skiff export`, secrets encrypted to --recipient", async () => {
    const dir = await mkdtemp(join(tmpdir(), "skiff-export-"));
    try {
      const file = join(dir, "org.json");
      const env = cliEnv(a.url, seeded.ownerKey, dir);
      const run = await runCli(["export", "--recipient", recipient, "-o", file, "--json"], env, false);
      expect(run.code, run.output).toBe(0);
      const report = JSON.parse(run.stderr.trim().split("\n").at(-1)!);
      expect(report).toMatchObject({ organizationId: seeded.organizationId, file, secrets: "encrypted" });
      const text = await readFile(file, "utf8");
      expect(report.bytes).toBe(Buffer.byteLength(text));
      expect(leaks(text)).toEqual([]);
      const bundle = JSON.parse(text) as OrganizationBundle;
      expect(Object.keys(await decryptSecrets(bundle.secrets.ciphertext!, { identity }))).toHaveLength(5);

      const bare = await runCli(["export", "-o", join(dir, "bare.json")], env, false);
      expect(bare.code, bare.output).toBe(0);
      expect(bare.stderr).toMatch(/secrets were left out/);
      // Readable by its owner only: a new file, and one that was there with a wider mode.
      expect((await stat(file)).mode & 0o777).toBe(0o600);
      const wide = join(dir, "wide.json");
      await writeFile(wide, "old", { mode: 0o644 });
      await chmod(wide, 0o644);
      expect((await runCli(["export", "-o", wide], env, false)).code).toBe(0);
      expect((await stat(wide)).mode & 0o777).toBe(0o600);
      // An output path that cannot be written is the caller's argument: exit 2 with a message, no stack.
      const unwritable = await runCli(["export", "-o", join(dir, "missing", "x.json")], env, false);
      expect(unwritable.code).toBe(2);
      expect(unwritable.stderr).toMatch(/Cannot write .*missing\/x\.json: ENOENT/);

      const refused = await runCli(["export", "-o", join(dir, "x.json")], cliEnv(a.url, seeded.memberKey, dir), false);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/does not allow organization:export/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

/** `POST /api/organizations/{id}/import-plan` on `server`. */
async function planOf(server: RunningSkiff, organizationId: string, apiKey: string, body: Record<string, unknown>) {
  const res = await fetch(`${server.url}/api/organizations/${organizationId}/import-plan`, {
    method: "POST",
    headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> & ImportPlan };
}

/** The plan as the REST row answers it. */
interface ImportPlan {
  items: Array<{ kind: string; name: string; action: string; reason: string | null }>;
  creates: number;
  exists: number;
  conflicts: number;
  secrets: number;
  secretsReadable: number;
  warnings: string[];
}

describe("organization import plan", () => {
  let bundle: OrganizationBundle;
  beforeAll(async () => {
    bundle = (await exportOf(a, seeded.organizationId, seeded.ownerKey, { recipient })).body;
  });

  it("finds everything existing and matching in the same configuration, apart from the docs hostname", async () => {
    const { status, body: plan } = await planOf(b, onB.organizationId, onB.ownerKey, { bundle, identity });
    expect(status).toBe(200);
    expect(plan.creates).toBe(0);
    expect(plan.secrets).toBe(5);
    expect(plan.secretsReadable).toBe(5);
    expect(plan.items.filter((i) => i.action !== "EXISTS")).toEqual([
      { kind: "docsTheme", name: "Shop docs", action: "CONFLICT", reason: "differs: hostname" },
    ]);
    expect(plan.items.map((i) => i.kind)).toEqual(
      expect.arrayContaining([
        "project",
        "environment",
        "application",
        "domain",
        "database",
        "paymentGatewayService",
        "webhookEndpoint",
        "member",
      ]),
    );
    expect(plan.warnings).toEqual([
      `Application shop-${tag}/production/web: attach a github git provider to deploy it`,
    ]);
  });

  it("plans creations and names each conflict: a project's settings, a host taken, a quota; secrets without a key", async () => {
    // A free organization (3 projects) on B holding three projects, one of them named like the bundle's.
    const { organizationId, owner } = await createOrg(dbB.knex, "plan_free");
    await createRegistry(dbB.knex, organizationId);
    for (const [name, description] of [
      [`blog-${tag}`, "Another blog"],
      ["legacy", null],
      ["archive", null],
    ] as const) {
      await dbB.knex("projects").insert({ id: newId("project"), organization_id: organizationId, name, description });
    }
    const { status, body: plan } = await planOf(b, organizationId, owner.apiKey, { bundle });
    expect(status).toBe(200);
    const conflicts = plan.items.filter((i) => i.action === "CONFLICT");
    expect(conflicts).toEqual([
      { kind: "project", name: `blog-${tag}`, action: "CONFLICT", reason: "differs: description" },
      {
        kind: "application",
        name: `shop-${tag}/production/web`,
        action: "CONFLICT",
        reason: "no github git provider in this organization: add one first",
      },
      // The hosts are held by the same configuration's organization on B.
      {
        kind: "domain",
        name: `shop-${tag}.example.test`,
        action: "CONFLICT",
        reason: "host is taken on this instance",
      },
      { kind: "domain", name: `www-${tag}.example.test`, action: "CONFLICT", reason: "host is taken on this instance" },
      { kind: "quota", name: "projects", action: "CONFLICT", reason: '1 to create, 0 left of 3 on plan "free"' },
    ]);
    expect(plan.conflicts).toBe(conflicts.length);
    expect(plan.items).toContainEqual({ kind: "project", name: `shop-${tag}`, action: "CREATE", reason: null });
    expect(plan.items).toContainEqual({ kind: "member", name: seeded.memberEmail, action: "CREATE", reason: null });
    expect(plan.secretsReadable).toBe(0);
    expect(plan.warnings).toContain(
      `Secret database:shop-${tag}/production/shopdb would be left empty: no identity or passphrase was given`,
    );
    expect(plan.warnings.filter((w) => w.startsWith("Secret "))).toHaveLength(5);
    expect(plan.warnings).toContain(`Member ${seeded.ownerEmail} (owner in the bundle) would be invited as admin`);
    expect(JSON.stringify(plan)).not.toContain(planted.dbPassword);
  });

  it("refuses admins (403), another organization (404), a bundle of another version and a wrong key (400)", async () => {
    expect((await planOf(a, seeded.organizationId, seeded.adminKey, { bundle })).status).toBe(403);
    expect((await planOf(b, seeded.organizationId, onB.ownerKey, { bundle })).status).toBe(404);
    const other = await planOf(b, onB.organizationId, onB.ownerKey, { bundle: { ...bundle, version: 2 } });
    expect(other.status).toBe(400);
    expect(other.body).toMatchObject({ code: "BAD_USER_INPUT", fieldErrors: { version: [expect.any(String)] } });
    const wrong = await planOf(b, onB.organizationId, onB.ownerKey, { bundle, identity: await generateIdentity() });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toMatch(/does not decrypt/);
    expect((await planOf(b, onB.organizationId, onB.ownerKey, {})).status).toBe(400);
  });

  it("shows the plan with `skiff import-plan`, exit 1 on conflicts", async () => {
    const dir = await mkdtemp(join(tmpdir(), "skiff-plan-"));
    try {
      const file = join(dir, "bundle.json");
      const keyFile = join(dir, "key.txt");
      await writeFile(file, JSON.stringify(bundle));
      await writeFile(keyFile, `# created: now\n# public key: ${recipient}\n${identity}\n`);
      const run = await runCli(["import-plan", file, "--identity", keyFile], cliEnv(b.url, onB.ownerKey, dir), false);
      expect(run.code, run.output).toBe(1);
      expect(run.stdout).toContain("docsTheme");
      expect(run.stdout).toContain("conflict: differs: hostname");
      expect(run.stdout).toMatch(/0 to create, \d+ existing, 1 conflict\(s\); 5 of 5 secret\(s\) readable/);
      const json = await runCli(["import-plan", file, "--json"], cliEnv(b.url, onB.ownerKey, dir), false);
      expect(JSON.parse(json.stdout)).toMatchObject({ conflicts: 1, secretsReadable: 0 });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
