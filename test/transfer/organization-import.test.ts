/**
 * The organization import (docs/organization-transfer.md "Import") between two real servers on two databases: an
 * organization seeded with every kind of resource on server A is exported with an age recipient and imported through
 * `POST /api/organizations/{id}/import` into a fresh organization on server B (another database, another
 * SKIFF_SECRET, the sandbox payment gateway, loopback URLs allowed outbound); B's export of it equals A's apart from
 * ids, time, ciphertext and members (the others arrive as pending invitations), its secrets decrypting to the same
 * values. A second import (the CLI's `skiff import-organization`) creates nothing and the plan then shows every item
 * EXISTS; without a key, variables import empty and database passwords and webhook secrets are made anew, one
 * warning each, and `deploy: true` queues one deployment per application created. A plan with conflicts is refused
 * (409, nothing created), and admins, members (403) and another organization's owner (404) cannot import.
 */
import { randomBytes } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateIdentity, identityToRecipient } from "age-encryption";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SandboxGateway, startSandboxGateway } from "../../sandbox/gateway/sandbox-gateway.ts";
import { newId } from "../../src/db/ids.ts";
import { createSecretBox } from "../../src/db/secrets.ts";
import type { OrganizationBundle } from "../../src/modules/transfer/bundle.schema.ts";
import { decryptSecrets } from "../../src/modules/transfer/bundle-secrets.ts";
import type { RunningSkiff } from "../../src/server/start.ts";
import { namespaceOf } from "../../src/shared/tenant-namespace.ts";
import { cliEnv, runCli } from "../helpers/cli-runner.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { addMember, createOrg, createProjects, TEST_SECRET } from "../helpers/seed.ts";
import { gql, startTestServer } from "../helpers/server.ts";
import { signIn } from "../helpers/session.ts";
import { plantSecrets, type Seeded, seedOrganization } from "./seed-organization.ts";

const OTHER_SECRET = "import-secret-import-secret-import-secret-7";
const GATEWAY_KEY = "sandbox-management-key";
const tag = randomBytes(3).toString("hex");
const planted = plantSecrets();

let dbA: TestDatabase;
let dbB: TestDatabase;
let a: RunningSkiff;
let b: RunningSkiff;
let sandbox: SandboxGateway;
let seeded: Seeded;
let identity: string;
let recipient: string;
/** A's export, secrets encrypted to `recipient`. */
let bundle: OrganizationBundle;
/** The organization on B that receives the bundle with its key. */
let target: { organizationId: string; ownerKey: string };

/** What `POST …/import` answers. */
interface ImportResult {
  created: Array<{ kind: string; name: string; action: string }>;
  exists: number;
  deployments: string[];
  warnings: string[];
}

/** `POST /api/organizations/{id}/<path>` on B. */
async function post(path: "import" | "import-plan", organizationId: string, apiKey: string, body: unknown) {
  const res = await fetch(`${b.url}/api/organizations/${organizationId}/${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** `GET /api/organizations/{id}/export?recipient=…` on `server`. */
async function exportOf(server: RunningSkiff, organizationId: string, apiKey: string): Promise<OrganizationBundle> {
  const res = await fetch(
    `${server.url}/api/organizations/${organizationId}/export?recipient=${encodeURIComponent(recipient)}`,
    { headers: { authorization: `Bearer ${apiKey}` } },
  );
  expect(res.status).toBe(200);
  return (await res.json()) as OrganizationBundle;
}

/** A fresh organization on B whose owner has `email`, with a GitHub provider (the bundle's GitHub source needs one). */
async function freshTarget(email?: string) {
  const { organizationId, owner } = await createOrg(dbB.knex);
  if (email) await dbB.knex("users").where({ id: owner.userId }).update({ email });
  await dbB
    .knex("git_providers")
    .insert({ id: newId("gitProvider"), organization_id: organizationId, type: "github", name: "GitHub" });
  return { organizationId, ownerKey: owner.apiKey };
}

beforeAll(async () => {
  sandbox = await startSandboxGateway({ apiKey: GATEWAY_KEY, activationDelayMs: 100 });
  [dbA, dbB] = await Promise.all([createTestDatabase(), createTestDatabase()]);
  [a, b] = await Promise.all([
    startTestServer(dbA.url),
    startTestServer(dbB.url, {
      SKIFF_SECRET: OTHER_SECRET,
      SKIFF_GATEWAY_URL: sandbox.url,
      SKIFF_GATEWAY_API_KEY: GATEWAY_KEY,
      SKIFF_OUTBOUND_ALLOW: "127.0.0.1",
      SKIFF_DEFAULT_REGISTRY_URL: "registry.example.test",
    }),
  ]);
  seeded = await seedOrganization(dbA.knex, createSecretBox(TEST_SECRET), {
    tag,
    planted,
    webhookUrl: "https://127.0.0.1:5599/skiff",
    paymentWebhookUrl: "https://127.0.0.1:5598/payments",
  });
  identity = await generateIdentity();
  recipient = await identityToRecipient(identity);
  bundle = await exportOf(a, seeded.organizationId, seeded.ownerKey);
  target = await freshTarget(seeded.ownerEmail);
}, 60_000);
afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop(), sandbox?.close()]);
  await Promise.all([dbA?.drop(), dbB?.drop()]);
});

/** The bundle without what differs between two instances' exports of one configuration. */
function comparable(x: OrganizationBundle): Record<string, unknown> {
  return {
    ...x,
    exportedAt: "",
    organization: null,
    secrets: { ...x.secrets, ciphertext: "" },
    members: null,
  };
}

/** A copy of `x` without domains and docs hostname: those are unique on an instance, held by the first import. */
function withoutHosts(x: OrganizationBundle): OrganizationBundle {
  const copy = structuredClone(x);
  for (const p of copy.projects) for (const e of p.environments) for (const app of e.applications) app.domains = [];
  copy.docsTheme = { ...copy.docsTheme!, hostname: null };
  return copy;
}

describe("organization import", () => {
  it("imports every kind of resource into a fresh organization on another instance; the export there is equal", async () => {
    const res = await post("import", target.organizationId, target.ownerKey, { bundle, identity });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const result = res.body as unknown as ImportResult;
    expect(result.deployments).toEqual([]);
    const kinds = new Set(result.created.map((i) => i.kind));
    expect([...kinds].sort()).toEqual(
      [
        "application",
        "database",
        "deploySettings",
        "docsTheme",
        "domain",
        "environment",
        "member",
        "paymentGatewayService",
        "project",
        "variable",
        "webhookEndpoint",
      ].sort(),
    );
    // The owner exists there (same address); the admin and the member are invited, the member with their grants.
    expect(result.created.filter((i) => i.kind === "member").map((i) => i.name)).toEqual([
      seeded.adminEmail,
      seeded.memberEmail,
    ]);
    expect(result.warnings).toEqual([]);
    expect(JSON.stringify(result)).not.toContain(planted.apiKey);

    const again = await exportOf(b, target.organizationId, target.ownerKey);
    expect(comparable(again)).toEqual(comparable(bundle));
    expect(again.members).toEqual([{ email: seeded.ownerEmail, role: "owner", grants: [] }]);
    const invited = await dbB
      .knex("invitations")
      .where({ organization_id: target.organizationId, status: "pending" })
      .orderBy("email")
      .select("email", "role");
    expect(invited).toEqual(
      [
        { email: seeded.adminEmail, role: "admin" },
        { email: seeded.memberEmail, role: "member" },
      ].sort((x, y) => x.email.localeCompare(y.email)),
    );
    // Secrets: the same values, stored with B's own key.
    expect(await decryptSecrets(again.secrets.ciphertext!, { identity })).toEqual(
      await decryptSecrets(bundle.secrets.ciphertext!, { identity }),
    );
    const stored = await dbB.knex("databases").where({ organization_id: target.organizationId }).first();
    expect(createSecretBox(OTHER_SECRET).decrypt(stored.passwordEncrypted ?? stored.password_encrypted)).toBe(
      planted.dbPassword,
    );
    // The application of a GitHub source is attached to the organization's GitHub provider.
    const web = await dbB
      .knex("applications")
      .where({ organization_id: target.organizationId, source_type: "github" })
      .first("source");
    const provider = await dbB.knex("git_providers").where({ organization_id: target.organizationId }).first("id");
    expect(web.source.gitProviderId).toBe(provider.id);
  });

  it("creates nothing the second time (`skiff import-organization`), the plan then showing every item EXISTS", async () => {
    const dir = await mkdtemp(join(tmpdir(), "skiff-import-org-"));
    try {
      const file = join(dir, "bundle.json");
      const keyFile = join(dir, "key.txt");
      await writeFile(file, JSON.stringify(bundle));
      await writeFile(keyFile, `# public key: ${recipient}\n${identity}\n`);
      const env = cliEnv(b.url, target.ownerKey, dir);
      const run = await runCli(["import-organization", file, "--identity", keyFile, "--yes"], env, false);
      expect(run.code, run.output).toBe(0);
      expect(run.stdout).toMatch(/^0 created, \d+ existing$/m);
      expect(run.stdout).not.toMatch(/^created /m);
      const json = await runCli(["import-organization", file, "--yes", "--json"], env, false);
      expect(json.code, json.output).toBe(0);
      expect(JSON.parse(json.stdout.trim().split("\n").at(-1)!)).toMatchObject({ created: [], deployments: [] });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    const plan = await post("import-plan", target.organizationId, target.ownerKey, { bundle, identity });
    expect(plan.status).toBe(200);
    expect(plan.body).toMatchObject({ creates: 0, conflicts: 0 });
    const items = plan.body.items as Array<{ action: string }>;
    expect(items.every((i) => i.action === "EXISTS")).toBe(true);
  });

  it("imports without a key: variables empty, new database password and webhook secret, a warning each; deploys when asked", async () => {
    const bare = withoutHosts(bundle);
    bare.secrets = { ...bare.secrets, encryption: "none", recipient: null, ciphertext: null };
    const other = await freshTarget();
    const res = await gql<{ importOrganization: ImportResult }>(
      b.url,
      `mutation($org: ID!, $bundle: JSONObject!) { importOrganization(organizationId: $org, bundle: $bundle, deploy: true) {
        created { kind name action } exists deployments warnings } }`,
      { org: other.organizationId, bundle: bare },
      { apiKey: other.ownerKey },
    );
    expect(res.errors).toBeUndefined();
    const result = res.data!.importOrganization;
    expect(result.warnings.filter((w) => w.startsWith("Secret ")).sort()).toEqual(
      [
        `Secret env:shop-${tag}/production/web/API_KEY was left empty`,
        `Secret env:shop-${tag}/production/web/DATABASE_URL was left empty`,
        `Secret env:blog-${tag}/production/worker/EMPTY was left empty`,
        `Secret database:shop-${tag}/production/shopdb was not readable: a new password was generated`,
        "Secret webhook:https://127.0.0.1:5599/skiff was not readable: a new signing secret was generated",
      ].sort(),
    );
    expect(result.deployments).toHaveLength(3);
    const box = createSecretBox(OTHER_SECRET);
    const values = await dbB
      .knex("environment_variables as v")
      .join("applications as a", "a.id", "v.application_id")
      .where("a.organization_id", other.organizationId)
      .select("v.key", "v.value_encrypted");
    expect(values.map((v) => [v.key, box.decrypt(v.valueEncrypted ?? v.value_encrypted)]).sort()).toEqual([
      ["API_KEY", ""],
      ["DATABASE_URL", ""],
      ["EMPTY", ""],
    ]);
    const db = await dbB.knex("databases").where({ organization_id: other.organizationId }).first();
    const password = box.decrypt(db.passwordEncrypted ?? db.password_encrypted);
    expect(password).not.toBe(planted.dbPassword);
    expect(password.length).toBeGreaterThan(10);
  });

  it("finishes a run stopped halfway when run again, creating only what is missing", async () => {
    const local = withoutHosts(bundle);
    const broken = structuredClone(local);
    broken.webhookEndpoints[0]!.events = ["no_such_event"];
    const other = await freshTarget();
    const stopped = await post("import", other.organizationId, other.ownerKey, { bundle: broken, identity });
    expect(stopped.status).toBe(400);
    expect(stopped.body.error).toMatch(/no_such_event/);
    // Everything before the refused endpoint is there.
    expect(await dbB.knex("projects").where({ organization_id: other.organizationId }).count()).toEqual([{ count: 2 }]);
    const resumed = await post("import", other.organizationId, other.ownerKey, { bundle: local, identity });
    expect(resumed.status, JSON.stringify(resumed.body)).toBe(200);
    expect((resumed.body as unknown as ImportResult).created.map((i) => i.kind)).toEqual([
      "webhookEndpoint",
      "docsTheme",
      "member",
      "member",
      "member",
    ]);
  });

  it("wires the applications that used a database to the database made here, not to the source's host", async () => {
    const source = await createOrg(dbA.knex);
    const on = async <T>(query: string, variables: Record<string, unknown>) => {
      const res = await gql<T>(a.url, query, variables, { apiKey: source.owner.apiKey });
      expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
      return res.data!;
    };
    await on(
      `mutation($o: ID!) { createContainerRegistry(input: { organizationId: $o, name: "r", url: "registry.example.test" }) { id } }`,
      { o: source.organizationId },
    );
    const { createProject } = await on<{ createProject: { environments: Array<{ id: string }> } }>(
      `mutation($o: ID!) { createProject(input: { organizationId: $o, name: "wired" }) { environments { id } } }`,
      { o: source.organizationId },
    );
    const environmentId = createProject.environments[0]!.id;
    const app = async (name: string) =>
      (
        await on<{ createApplication: { id: string } }>(
          `mutation($e: ID!, $n: String!) { createApplication(input: { environmentId: $e, name: $n,
            source: { type: docker, dockerImage: "nginx:1.27" } }) { id } }`,
          { e: environmentId, n: name },
        )
      ).createApplication.id;
    const [pgUser, myUser, outside] = [await app("pg-user"), await app("my-user"), await app("outside")];
    await on(
      `mutation($e: ID!, $a: [ID!]) { createDatabase(input: { environmentId: $e, type: postgres, name: "main",
        user: "app", applicationIds: $a }) { database { id } } }`,
      { e: environmentId, a: [pgUser] },
    );
    await on(
      `mutation($e: ID!, $a: [ID!]) { createDatabase(input: { environmentId: $e, type: mariadb, name: "cache",
        user: "app", applicationIds: $a }) { database { id } } }`,
      { e: environmentId, a: [myUser] },
    );
    // A database outside Skiff with the same names: not the source's, left as it is.
    await on(
      `mutation($a: ID!) { setEnvironmentVariables(applicationId: $a, variables: [{ key: "DB_HOST", value: "db.outside.test" },
        { key: "DB_DATABASE", value: "other" }, { key: "DB_USERNAME", value: "app" }]) { setKeys } }`,
      { a: outside },
    );
    const exported = await exportOf(a, source.organizationId, source.owner.apiKey);
    const other = await freshTarget();
    const res = await post("import", other.organizationId, other.ownerKey, { bundle: exported, identity });
    expect(res.status, JSON.stringify(res.body)).toBe(200);

    const box = createSecretBox(OTHER_SECRET);
    const variablesOf = async (name: string) => {
      const rows = await dbB
        .knex("environment_variables as v")
        .join("applications as a", "a.id", "v.application_id")
        .where({ "a.organization_id": other.organizationId, "a.name": name })
        .select("v.key", "v.value_encrypted");
      return Object.fromEntries(rows.map((r) => [r.key, box.decrypt(r.valueEncrypted ?? r.value_encrypted)]));
    };
    const databaseOf = (name: string) =>
      dbB.knex("databases").where({ organization_id: other.organizationId, name }).first();
    const main = await databaseOf("main");
    const cache = await databaseOf("cache");
    const pg = await variablesOf("pg-user");
    expect(pg.DB_HOST).toBe(main.serviceHost ?? main.service_host);
    expect(pg.DB_HOST).toContain(`.${namespaceOf(other.organizationId)}.`);
    const password = box.decrypt(main.passwordEncrypted ?? main.password_encrypted);
    expect(pg.DATABASE_URL).toBe(`postgresql://app:${encodeURIComponent(password)}@${pg.DB_HOST}:5432/main`);
    const my = await variablesOf("my-user");
    expect(my.DB_HOST).toBe(cache.serviceHost ?? cache.service_host);
    expect(await variablesOf("outside")).toEqual({
      DB_HOST: "db.outside.test",
      DB_DATABASE: "other",
      DB_USERNAME: "app",
    });
    // Nothing of the new organization points at the source organization's namespace.
    expect(JSON.stringify([pg, my])).not.toContain(namespaceOf(source.organizationId));
  });

  it("finds before creating anything what the services would refuse: a port out of range, a variable's name, a host, no registry", async () => {
    const bad = withoutHosts(bundle);
    const web = bad.projects[0]!.environments[0]!.applications[0]!;
    web.port = 99_999;
    web.variables.push({ key: "bad key!", secret: web.variables[0]!.secret });
    web.domains = [{ host: "nas.lan", port: null, https: true }];
    const other = await freshTarget();
    const planned = await post("import-plan", other.organizationId, other.ownerKey, { bundle: bad, identity });
    expect(planned.status).toBe(200);
    const conflicts = (
      planned.body.items as Array<{ kind: string; name: string; action: string; reason: string }>
    ).filter((i) => i.action === "CONFLICT");
    expect(conflicts.map((c) => [c.kind, c.reason])).toEqual(
      expect.arrayContaining([
        ["application", "port: Must be 1 to 65535"],
        ["variable", expect.stringMatching(/^key: /)],
        ["domain", expect.stringMatching(/^host: Must be a public host name/)],
      ]),
    );
    const refused = await post("import", other.organizationId, other.ownerKey, { bundle: bad, identity });
    expect(refused.status).toBe(409);
    expect(await dbB.knex("projects").where({ organization_id: other.organizationId }).count()).toEqual([{ count: 0 }]);

    // On A no registry is configured (no platform default): every new application is a conflict saying so.
    const bare = await createOrg(dbA.knex);
    const res = await fetch(`${a.url}/api/organizations/${bare.organizationId}/import-plan`, {
      method: "POST",
      headers: { authorization: `Bearer ${bare.owner.apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ bundle: withoutHosts(bundle), identity }),
    });
    const items = ((await res.json()) as { items: Array<{ kind: string; action: string; reason: string }> }).items;
    const apps = items.filter((i) => i.kind === "application");
    expect(apps.every((app) => app.action === "CONFLICT")).toBe(true);
    // The GitHub one lacks its provider first; every other says the registry is missing.
    const sourced = apps.filter((app) => !app.reason.includes("git provider"));
    expect(sourced.length).toBeGreaterThan(0);
    for (const app of sourced) expect(app.reason).toMatch(/^No container registry/);
  });

  it("refuses a plan with conflicts (409, naming them, nothing created), admins and members (403), others (404)", async () => {
    // The hosts and the docs hostname are held by the first target; this organization has no GitHub provider.
    const { organizationId, owner } = await createOrg(dbB.knex);
    const res = await post("import", organizationId, owner.apiKey, { bundle, identity });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe("CONFLICT");
    expect(res.body.error).toContain(`domain shop-${tag}.example.test: host is taken on this instance`);
    expect(res.body.error).toContain(
      `application shop-${tag}/production/web: no github git provider in this organization: add one first`,
    );
    expect(await dbB.knex("projects").where({ organization_id: organizationId })).toEqual([]);

    const admin = await addMember(dbB.knex, target.organizationId, "admin");
    const member = await addMember(dbB.knex, target.organizationId, "member");
    for (const key of [admin.apiKey, member.apiKey]) {
      const refused = await post("import", target.organizationId, key, { bundle });
      expect(refused.status).toBe(403);
      expect(refused.body.code).toBe("FORBIDDEN");
    }
    expect((await post("import", target.organizationId, owner.apiKey, { bundle })).status).toBe(404);
    expect(
      (await post("import", target.organizationId, target.ownerKey, { bundle: { ...bundle, version: 2 } })).status,
    ).toBe(400);
    expect((await post("import", target.organizationId, target.ownerKey, {})).status).toBe(400);
  });
  it("gives a member the grants their invitation carried when they join: the export then lists them as the bundle did", async () => {
    const links = await gql<{ organization: { invitations: Array<{ email: string; link: string | null }> } }>(
      b.url,
      "query($id: ID!) { organization(id: $id) { invitations { email link } } }",
      { id: target.organizationId },
      { apiKey: target.ownerKey },
    );
    expect(links.errors).toBeUndefined();
    const link = links.data!.organization.invitations.find((i) => i.email === seeded.memberEmail)?.link;
    expect(link).toBeTruthy();
    const joined = await gql(
      b.url,
      "mutation($input: SignUpWithInvitationInput!) { signUpWithInvitation(input: $input) { id } }",
      { input: { token: new URL(link!).searchParams.get("token"), name: "Member", password: "member-password-1" } },
    );
    expect(joined.errors).toBeUndefined();
    const after = await exportOf(b, target.organizationId, target.ownerKey);
    const member = (x: OrganizationBundle) => x.members.find((m) => m.email === seeded.memberEmail);
    expect(member(bundle)?.grants.length).toBe(2);
    expect(member(after)).toEqual(member(bundle));
  });

  it("keeps a member whose grants' targets were all deleted limited: exported `limited`, joining here sees no project", async () => {
    // On A: a member granted one project, then the project deleted (its grant goes with it).
    const source = await createOrg(dbA.knex);
    const [projectId] = await createProjects(dbA.knex, source.organizationId, 1);
    const limited = await addMember(dbA.knex, source.organizationId, "member", { projectIds: [projectId!] });
    const unlimited = await addMember(dbA.knex, source.organizationId, "member");
    const deleted = await gql(
      a.url,
      "mutation($id: ID!) { deleteProject(id: $id) }",
      { id: projectId },
      { apiKey: source.owner.apiKey },
    );
    expect(deleted.errors).toBeUndefined();
    const exported = await exportOf(a, source.organizationId, source.owner.apiKey);
    const memberOf = (x: OrganizationBundle, email: string) => x.members.find((m) => m.email === email);
    expect(memberOf(exported, limited.email)).toEqual({
      email: limited.email,
      role: "member",
      grants: [],
      limited: true,
    });
    expect(memberOf(exported, unlimited.email)).toEqual({ email: unlimited.email, role: "member", grants: [] });

    // On B: both invited; each joins an organization holding one project.
    const here = await freshTarget();
    await createProjects(dbB.knex, here.organizationId, 1);
    const imported = await post("import", here.organizationId, here.ownerKey, { bundle: exported });
    expect(imported.status).toBe(200);
    const invitations = await gql<{ organization: { invitations: Array<{ email: string; link: string | null }> } }>(
      b.url,
      "query($id: ID!) { organization(id: $id) { invitations { email link } } }",
      { id: here.organizationId },
      { apiKey: here.ownerKey },
    );
    const projectsSeenBy = async (email: string) => {
      const link = invitations.data!.organization.invitations.find((i) => i.email === email)?.link;
      const password = "member-password-1";
      const joined = await gql(
        b.url,
        "mutation($input: SignUpWithInvitationInput!) { signUpWithInvitation(input: $input) { id } }",
        { input: { token: new URL(link!).searchParams.get("token"), name: "Member", password } },
      );
      expect(joined.errors).toBeUndefined();
      const cookie = await signIn(b.url, email, password);
      const seen = await gql<{ organization: { projects: { totalCount: number } } }>(
        b.url,
        "query($id: ID!) { organization(id: $id) { projects(first: 10) { totalCount } } }",
        { id: here.organizationId },
        { cookie },
      );
      expect(seen.errors).toBeUndefined();
      return seen.data!.organization.projects.totalCount;
    };
    expect(await projectsSeenBy(limited.email)).toBe(0);
    expect(await projectsSeenBy(unlimited.email)).toBe(1);
    // Exported again, the member is still limited with nothing.
    const again = await exportOf(b, here.organizationId, here.ownerKey);
    expect(memberOf(again, limited.email)).toMatchObject({ grants: [], limited: true });
  });
});

describe("organization import: bundles refused before anything is created", () => {
  /** `bundle` with nothing but `projects` and `members` (no hosts, webhook endpoints or docs theme). */
  function only(projects: OrganizationBundle["projects"], members: OrganizationBundle["members"]): OrganizationBundle {
    return { ...structuredClone(bundle), projects, members, webhookEndpoints: [], docsTheme: null };
  }
  const project = (name: string, description: string | null = null) => ({
    name,
    description,
    environments: [],
    paymentGatewayServices: [],
  });

  it("makes a member's grant naming nothing here or in the bundle a conflict: the import invites no one", async () => {
    const other = await freshTarget();
    const email = `gina-${tag}@example.com`;
    const lost = only([], [{ email, role: "member", grants: [{ project: "does-not-exist" }] }]);
    const plan = await post("import-plan", other.organizationId, other.ownerKey, { bundle: lost });
    expect(plan.status, JSON.stringify(plan.body)).toBe(200);
    expect(plan.body).toMatchObject({ creates: 0, conflicts: 1 });
    expect(plan.body.items).toEqual([
      {
        kind: "member",
        name: email,
        action: "CONFLICT",
        reason: "members.0.grants.0: project does-not-exist is neither in this organization nor in the bundle",
      },
    ]);
    const res = await post("import", other.organizationId, other.ownerKey, { bundle: lost });
    expect(res.status).toBe(409);
    expect(res.body.error).toContain(`member ${email}: members.0.grants.0: project does-not-exist`);
    expect(await dbB.knex("invitations").where({ organization_id: other.organizationId })).toEqual([]);

    // A grant on an application the bundle does not hold is refused alike; one on a project it creates is given.
    const app = only(
      [project(`granted-${tag}`)],
      [{ email, role: "member", grants: [{ project: `granted-${tag}`, environment: "production", application: "x" }] }],
    );
    const appPlan = await post("import-plan", other.organizationId, other.ownerKey, { bundle: app });
    expect((appPlan.body.items as Array<{ reason: string | null }>).at(-1)?.reason).toBe(
      `members.0.grants.0: application granted-${tag}/production/x is neither in this organization nor in the bundle`,
    );
    const fine = only(
      [project(`granted-${tag}`)],
      [{ email, role: "member", grants: [{ project: `granted-${tag}` }] }],
    );
    const done = await post("import", other.organizationId, other.ownerKey, { bundle: fine });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    const invitation = await dbB.knex("invitations").where({ organization_id: other.organizationId, email }).first();
    const granted = await dbB.knex("projects").where({ organization_id: other.organizationId }).first("id");
    expect(invitation.pendingGrants ?? invitation.pending_grants).toEqual([{ projectId: granted.id }]);

    // An environment without its application is not a grant on the project.
    const half = only(
      [],
      [{ email: `h-${tag}@example.com`, role: "member", grants: [{ project: "p", environment: "e" }] }],
    );
    const refused = await post("import-plan", other.organizationId, other.ownerKey, { bundle: half });
    expect(refused.status).toBe(400);
    expect(Object.keys(refused.body.fieldErrors as object)).toEqual(["members.0.grants.0"]);
  });

  it("refuses a bundle naming one resource twice (400, fieldErrors at the repeat) and creates nothing", async () => {
    const other = await freshTarget();
    const twice = only([project("zz-dup"), project("zz-dup", "other")], []);
    for (const path of ["import-plan", "import"] as const) {
      const res = await post(path, other.organizationId, other.ownerKey, { bundle: twice });
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.fieldErrors).toEqual({
        "projects.1.name": ["Duplicate project zz-dup (also at projects.0.name)"],
      });
    }
    const members = only(
      [],
      [
        { email: `m-${tag}@example.com`, role: "admin", grants: [] },
        { email: `M-${tag}@Example.com`, role: "member", grants: [] },
      ],
    );
    const res = await post("import", other.organizationId, other.ownerKey, { bundle: members });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.fieldErrors as object)).toEqual(["members.1.email"]);

    // A host is unique on the instance: two applications of the bundle cannot both have it.
    const hosts = structuredClone(withoutHosts(bundle));
    const apps = hosts.projects.flatMap((p) => p.environments.flatMap((e) => e.applications));
    expect(apps.length).toBeGreaterThan(1);
    apps[0]!.domains = [{ host: `same-${tag}.example.test`, port: null, https: true }];
    apps[1]!.domains = [{ host: `SAME-${tag}.example.test.`, port: null, https: true }];
    const clash = await post("import", other.organizationId, other.ownerKey, { bundle: hosts, identity });
    expect(clash.status).toBe(400);
    expect(Object.keys(clash.body.fieldErrors as object)).toHaveLength(1);
    expect(Object.keys(clash.body.fieldErrors as object)[0]).toMatch(
      /^projects\.\d+\.environments\.\d+\.applications\.\d+\.domains\.0\.host$/,
    );
    expect(await dbB.knex("projects").where({ organization_id: other.organizationId })).toEqual([]);
    expect(await dbB.knex("invitations").where({ organization_id: other.organizationId })).toEqual([]);
  });

  it("names the key's field when it does not open the secrets", async () => {
    const other = await freshTarget();
    const wrongPassphrase = await post("import-plan", other.organizationId, other.ownerKey, {
      bundle,
      passphrase: "short",
    });
    expect(wrongPassphrase.status).toBe(400);
    expect(wrongPassphrase.body.fieldErrors).toEqual({ passphrase: ["Does not decrypt the bundle's secrets"] });
    const wrongIdentity = await post("import-plan", other.organizationId, other.ownerKey, {
      bundle,
      identity: await generateIdentity(),
    });
    expect(wrongIdentity.status).toBe(400);
    expect(wrongIdentity.body.fieldErrors).toEqual({ identity: ["Does not decrypt the bundle's secrets"] });
    // A damaged file is not blamed on the right key.
    const text = bundle.secrets.ciphertext!;
    const at = text.indexOf("\n") + 10;
    for (const ciphertext of [
      `${text.slice(0, at)}${text[at] === "A" ? "B" : "A"}${text.slice(at + 1)}`,
      "not armor",
    ]) {
      const damaged = { ...bundle, secrets: { ...bundle.secrets, ciphertext } };
      const res = await post("import-plan", other.organizationId, other.ownerKey, { bundle: damaged, identity });
      expect(res.status).toBe(400);
      expect(Object.keys(res.body.fieldErrors as object)).toEqual(["secrets.ciphertext"]);
    }
  });
});

describe("organization import: large bundles", () => {
  it("plans and imports a bundle larger than 1 MiB (an application's variables at their largest); asks for a credential before reading one", async () => {
    const source = await freshTarget();
    const as = { apiKey: source.ownerKey };
    const created = await gql(
      b.url,
      `mutation($p: CreateProjectInput!) { createProject(input: $p) { environments { id } } }`,
      { p: { organizationId: source.organizationId, name: `big-${tag}` } },
      as,
    );
    const environmentId = (created.data as { createProject: { environments: Array<{ id: string }> } }).createProject
      .environments[0]!.id;
    const app = await gql(
      b.url,
      `mutation($a: CreateApplicationInput!) { createApplication(input: $a) { id } }`,
      { a: { environmentId, name: "big", source: { type: "docker", dockerImage: "nginx:1.27" } } },
      as,
    );
    const applicationId = (app.data as { createApplication: { id: string } }).createApplication.id;
    // Two requests of 16 values of 30,000 characters: each under the 1 MiB of an ordinary request, 960 KB together,
    // under an application's 1,000,000 bytes of variables; encrypted in the bundle, more than 1 MiB.
    for (const half of [0, 1]) {
      const variables = Array.from({ length: 16 }, (_, i) => ({ key: `V${half}_${i}`, value: "v".repeat(30_000) }));
      const set = await gql(
        b.url,
        `mutation($id: ID!, $v: [EnvironmentVariableInput!]) { setEnvironmentVariables(applicationId: $id, variables: $v) { setKeys } }`,
        { id: applicationId, v: variables },
        as,
      );
      expect(set.errors).toBeUndefined();
    }
    const exported = await exportOf(b, source.organizationId, source.ownerKey);
    expect(JSON.stringify({ bundle: exported, identity }).length).toBeGreaterThan(1024 * 1024);

    const other = await freshTarget();
    const plan = await post("import-plan", other.organizationId, other.ownerKey, { bundle: exported, identity });
    expect(plan.status).toBe(200);
    expect(plan.body).toMatchObject({ conflicts: 0, secrets: 32, secretsReadable: 32 });
    const done = await post("import", other.organizationId, other.ownerKey, { bundle: exported, identity });
    expect(done.status).toBe(200);
    const [imported] = await dbB
      .knex("applications as a")
      .join("environments as e", "e.id", "a.environment_id")
      .join("projects as p", "p.id", "e.project_id")
      .where({ "p.organization_id": other.organizationId, "a.name": "big" })
      .select("a.id");
    const [{ count }] = await dbB
      .knex("environment_variables")
      .where({ application_id: imported.id })
      .count({ count: "*" });
    expect(Number(count)).toBe(32);

    // Without any credential, the large body is not read: 401 at once.
    const anonymous = await fetch(`${b.url}/api/organizations/${other.organizationId}/import`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "x".repeat(2 * 1024 * 1024),
    });
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ code: "UNAUTHENTICATED" });
  });
});
