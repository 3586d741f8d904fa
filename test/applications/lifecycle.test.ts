/**
 * Managing what an import creates, one object at a time, over real HTTP against a real server and PostgreSQL:
 * environments, applications, variables (one, many, a `.env` paste, unset, `deploy: true`), databases (create with
 * automatic variables, password rotation, deletion) and domains — each mutation's answer, its rows, its events and
 * `needsDeployment`.
 */
import { describe, expect, it } from "vitest";
import { createSecretBox } from "../../src/db/secrets.ts";
import { subscribeToEvents, type WebhookDomainEvent } from "../../src/modules/events.ts";
import { createOrg, createProjects, createRegistry, TEST_SECRET } from "../helpers/seed.ts";
import { captureLogs, gql, useTestServer } from "../helpers/server.ts";

const logs = captureLogs("debug");
const t = useTestServer({ SKIFF_DEPLOYER: "dry-run", LOG_LEVEL: "debug" }, logs.logger);
const box = createSecretBox(TEST_SECRET);

// biome-ignore lint/suspicious/noExplicitAny: answers are checked by assertions, not by types.
type Answer = Record<string, any>;

/** An owner's organization with one project (its `production` environment holds nothing yet). */
async function world() {
  const org = await createOrg(t.db.knex);
  await createRegistry(t.db.knex, org.organizationId);
  const [projectId] = await createProjects(t.db.knex, org.organizationId, 1, { applicationsPerEnvironment: 0 });
  const env = await t.db.knex("environments").where({ project_id: projectId }).first("id");
  const call = async <T = Answer>(query: string, variables: Record<string, unknown> = {}) => {
    const res = await gql<T>(t.skiff.url, query, variables, { apiKey: org.owner.apiKey });
    return res;
  };
  const ok = async <T = Answer>(query: string, variables: Record<string, unknown> = {}) => {
    const res = await call<T>(query, variables);
    expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
    return res.data as T;
  };
  return { org, projectId: projectId!, environmentId: env.id as string, call, ok };
}

/** Decrypted variables of `applicationId`, by key. */
async function variablesOf(applicationId: string): Promise<Record<string, string>> {
  const rows = await t.db.knex("environment_variables").where({ application_id: applicationId });
  return Object.fromEntries(rows.map((r) => [r.key, box.decrypt(r.valueEncrypted)]));
}

/** Every webhook domain event emitted in this process (the server runs in it), with its organization. */
const emitted: WebhookDomainEvent[] = [];
subscribeToEvents(async (_ctx, event) => {
  if (event.kind === "webhook") emitted.push(event);
});

/** Names of the events of `organizationId`, in order. */
function eventNames(organizationId: string): string[] {
  return emitted.filter((e) => e.organizationId === organizationId).map((e) => e.name);
}

const CREATE_APP = `mutation($input: CreateApplicationInput!) { createApplication(input: $input) {
  id name appName port needsDeployment sourceType buildType source { type dockerImage branch buildPath } environment { id } } }`;

describe("applications", () => {
  it("creates, updates and deletes an application; deletion removes its domains and variables", async () => {
    const w = await world();
    const created = await w.ok(CREATE_APP, {
      input: { environmentId: w.environmentId, name: "Shop", source: { type: "docker", dockerImage: "nginx:1.27" } },
    });
    const app = created.createApplication;
    expect(app).toMatchObject({
      name: "Shop",
      port: 80,
      needsDeployment: true,
      sourceType: "docker",
      source: { type: "docker", dockerImage: "nginx:1.27", branch: null, buildPath: null },
      environment: { id: w.environmentId },
    });
    expect(app.appName).toMatch(/^shop-[0-9a-z]{6}$/);

    const updated = await w.ok(
      `mutation($id: ID!, $input: UpdateApplicationInput!) { updateApplication(id: $id, input: $input) {
        name port source { dockerImage } needsDeployment } }`,
      { id: app.id, input: { name: "Shop 2", port: 8080, dockerImage: "nginx:1.28", healthPath: "/up" } },
    );
    expect(updated.updateApplication).toEqual({
      name: "Shop 2",
      port: 8080,
      source: { dockerImage: "nginx:1.28" },
      needsDeployment: true,
    });
    expect((await t.db.knex("applications").where({ id: app.id }).first("health_path")).healthPath).toBe("/up");

    // A patched source field is checked with the import's rules, its error under its own name.
    const bad = await w.call(
      `mutation($id: ID!, $input: UpdateApplicationInput!) { updateApplication(id: $id, input: $input) { id } }`,
      { id: app.id, input: { buildPath: "app", dockerImage: "-bad" } },
    );
    expect(bad.errors?.[0]?.extensions).toMatchObject({
      code: "BAD_USER_INPUT",
      fieldErrors: {
        buildPath: [
          "Must be an absolute path inside the repository, e.g. /app",
          "Only used by github, gitlab or git sources",
        ],
        dockerImage: [expect.stringMatching(/^Must be an image reference such as nginx:1\.27/)],
      },
    });

    await w.ok(`mutation($a: ID!) { setEnvironmentVariable(applicationId: $a, key: "A", value: "1") { id } }`, {
      a: app.id,
    });
    await w.ok(`mutation($i: AddDomainInput!) { addDomain(input: $i) { id } }`, {
      i: { applicationId: app.id, host: `gone-${Date.now()}.example.com` },
    });
    const deleted = await w.ok(`mutation($id: ID!) { deleteApplication(id: $id) }`, { id: app.id });
    expect(deleted.deleteApplication).toBe(app.id);
    for (const table of ["applications", "domains", "environment_variables"]) {
      const column = table === "applications" ? "id" : "application_id";
      expect(await t.db.knex(table).where(column, app.id).count("* as n").first(), table).toEqual({ n: 0 });
    }
    expect(eventNames(w.org.organizationId)).toEqual([
      "application.created",
      "application.updated",
      "application.variables_changed",
      "domain.added",
      "application.deleted",
    ]);
    const deletedEvent = emitted.find(
      (e) => e.name === "application.deleted" && e.organizationId === w.org.organizationId,
    );
    expect(deletedEvent?.data).toMatchObject({ application: { application_id: app.id, app_name: app.appName } });
    const again = await w.call(`mutation($id: ID!) { deleteApplication(id: $id) }`, { id: app.id });
    expect(again.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
  });
});

describe("environment variables", () => {
  it("sets one idempotently, unsets, and deploy: true queues a deployment instead of marking", async () => {
    const w = await world();
    const { createApplication: app } = await w.ok(CREATE_APP, {
      input: { environmentId: w.environmentId, name: "vars", source: { type: "docker", dockerImage: "nginx:1.27" } },
    });
    await t.db.knex("applications").where({ id: app.id }).update({ needs_deployment: false });
    const SET = `mutation($a: ID!, $k: String!, $v: String!, $d: Boolean) {
      setEnvironmentVariable(applicationId: $a, key: $k, value: $v, deploy: $d) { needsDeployment environmentVariables { key value } } }`;
    const first = await w.ok(SET, { a: app.id, k: "API_URL", v: "https://x.example" });
    expect(first.setEnvironmentVariable).toEqual({
      needsDeployment: true,
      environmentVariables: [{ key: "API_URL", value: "https://x.example" }],
    });
    const stored = await t.db.knex("environment_variables").where({ application_id: app.id }).first();
    expect(stored.valueEncrypted).not.toContain("https://x.example");
    // A value with NUL could never reach the container's environment: refused, nothing stored.
    const nul = await w.call(SET, { a: app.id, k: "WITH_NUL", v: "a\u0000b" });
    expect(nul.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
    expect(await t.db.knex("environment_variables").where({ application_id: app.id, key: "WITH_NUL" })).toEqual([]);

    // Retried with the same value: no change, no second event.
    await t.db.knex("applications").where({ id: app.id }).update({ needs_deployment: false });
    const retry = await w.ok(SET, { a: app.id, k: "API_URL", v: "https://x.example" });
    expect(retry.setEnvironmentVariable.needsDeployment).toBe(false);
    expect(eventNames(w.org.organizationId).filter((n) => n === "application.variables_changed")).toHaveLength(1);
    const changedEvent = emitted.find((e) => e.name === "application.variables_changed");
    expect(JSON.stringify(changedEvent)).not.toContain("x.example");

    const deployed = await w.ok(SET, { a: app.id, k: "API_URL", v: "https://y.example", d: true });
    expect(deployed.setEnvironmentVariable.needsDeployment).toBe(false);
    const deployments = await t.db.knex("deployments").where({ application_id: app.id });
    expect(deployments).toHaveLength(1);
    expect(deployments[0].title).toBe("Environment variables changed");

    const UNSET = `mutation($a: ID!, $k: String!) { unsetEnvironmentVariable(applicationId: $a, key: $k) { needsDeployment environmentVariables { key } } }`;
    expect((await w.ok(UNSET, { a: app.id, k: "API_URL" })).unsetEnvironmentVariable).toEqual({
      needsDeployment: true,
      environmentVariables: [],
    });
    // Unsetting what is not set succeeds (a retry).
    expect((await w.ok(UNSET, { a: app.id, k: "API_URL" })).unsetEnvironmentVariable.environmentVariables).toEqual([]);
  });

  it("applies a .env paste, and refuses one with malformed lines naming each line, setting nothing", async () => {
    const w = await world();
    const { createApplication: app } = await w.ok(CREATE_APP, {
      input: { environmentId: w.environmentId, name: "paste", source: { type: "docker", dockerImage: "nginx:1.27" } },
    });
    const PASTE = `mutation($a: ID!, $t: String) { setEnvironmentVariables(applicationId: $a, dotenv: $t) {
      setKeys application { environmentVariables { key value } } deployment { id } } }`;
    const good = await w.ok(PASTE, {
      a: app.id,
      t: '# comment\nexport A=1\nB="two words" # note\nC=\'single\'\nMULTI="l1\nl2"\nEMPTY=\nD: colon\n',
    });
    expect(good.setEnvironmentVariables.setKeys).toEqual(["A", "B", "C", "MULTI", "EMPTY", "D"]);
    expect(good.setEnvironmentVariables.deployment).toBeNull();
    expect(await variablesOf(app.id)).toEqual({
      A: "1",
      B: "two words",
      C: "single",
      MULTI: "l1\nl2",
      EMPTY: "",
      D: "colon",
    });

    const malformed = [
      "OK=1", // 1
      "NOEQUALS", // 2
      "BAD KEY=1", // 3
      "1DIGIT=1", // 4
      "dotted.name=1", // 5
      "dash-name=1", // 6
      "OK=2", // 7: duplicate of line 1
      "=nokey", // 8
      `LONG=${"x".repeat(32_769)}`, // 9
      'OPEN="never closed', // 10
      "AFTER=1", // 11 (inside the unclosed value)
    ].join("\n");
    const res = await w.call(PASTE, { a: app.id, t: malformed });
    expect(res.status).toBe(200);
    const ext = res.errors?.[0]?.extensions as { code: string; fieldErrors: Record<string, string[]> };
    expect(ext.code).toBe("BAD_USER_INPUT");
    expect(Object.keys(ext.fieldErrors).sort()).toEqual(
      ["line.2", "line.3", "line.4", "line.5", "line.6", "line.7", "line.8", "line.9", "line.10"].sort(),
    );
    expect(ext.fieldErrors["line.7"]).toEqual(["OK: Duplicate of line 1"]);
    expect(ext.fieldErrors["line.4"]![0]).toMatch(/^1DIGIT: Invalid variable name/);
    expect(ext.fieldErrors["line.10"]![0]).toMatch(/Unterminated/);
    expect(JSON.stringify(res.errors)).not.toContain("xxxxxxxxxx");
    expect(await variablesOf(app.id)).not.toHaveProperty("OK");

    // A huge bad paste: the first 50 lines named, the rest counted, so the answer stays small.
    const flood = await w.call(PASTE, { a: app.id, t: "NOEQUALS\n".repeat(20_000) });
    const floodExt = flood.errors?.[0]?.extensions as { fieldErrors: Record<string, string[]>; formErrors: string[] };
    expect(Object.keys(floodExt.fieldErrors)).toHaveLength(50);
    expect(floodExt.formErrors).toEqual(["19950 more lines are not applied either"]);
    expect(JSON.stringify(flood).length).toBeLessThan(10_000);

    const neither = await w.call(`mutation($a: ID!) { setEnvironmentVariables(applicationId: $a) { setKeys } }`, {
      a: app.id,
    });
    expect(neither.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
  });
});

describe("databases", () => {
  it("creates a database with automatic variables; rotation follows derived values only; deletion removes them", async () => {
    const w = await world();
    const { createApplication: app } = await w.ok(CREATE_APP, {
      input: { environmentId: w.environmentId, name: "dbapp", source: { type: "docker", dockerImage: "nginx:1.27" } },
    });
    const { createApplication: other } = await w.ok(CREATE_APP, {
      input: { environmentId: w.environmentId, name: "other", source: { type: "docker", dockerImage: "nginx:1.27" } },
    });
    const created = await w.ok(
      `mutation($i: CreateDatabaseInput!) { createDatabase(input: $i) { database { id type name user serviceHost } applications { id needsDeployment } } }`,
      { i: { environmentId: w.environmentId, type: "postgres", name: "shop", user: "shop", applicationIds: [app.id] } },
    );
    const db = created.createDatabase.database;
    expect(created.createDatabase.applications).toEqual([{ id: app.id, needsDeployment: true }]);
    const vars = await variablesOf(app.id);
    expect(vars.DB_HOST).toBe(db.serviceHost);
    expect(vars.DB_PASSWORD).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(vars.DATABASE_URL).toBe(`postgresql://shop:${vars.DB_PASSWORD}@${db.serviceHost}:5432/shop`);
    expect(await variablesOf(other.id)).toEqual({});

    // A user's own DB_USERNAME stays theirs; the derived ones follow the new password.
    await w.ok(
      `mutation($a: ID!) { setEnvironmentVariable(applicationId: $a, key: "DB_USERNAME", value: "mine") { id } }`,
      {
        a: app.id,
      },
    );
    await t.db.knex("applications").where({ id: app.id }).update({ needs_deployment: false });
    const rotated = await w.ok(
      `mutation($id: ID!) { rotateDatabasePassword(id: $id, password: "n3w p@ss/word") { applications { id needsDeployment } } }`,
      { id: db.id },
    );
    expect(rotated.rotateDatabasePassword.applications).toEqual([{ id: app.id, needsDeployment: true }]);
    const after = await variablesOf(app.id);
    expect(after.DB_PASSWORD).toBe("n3w p@ss/word");
    expect(after.DATABASE_URL).toBe(`postgresql://shop:n3w%20p%40ss%2Fword@${db.serviceHost}:5432/shop`);
    expect(after.DB_USERNAME).toBe("mine");
    expect(after.DB_HOST).toBe(db.serviceHost);
    const row = await t.db.knex("databases").where({ id: db.id }).first();
    expect(box.decrypt(row.passwordEncrypted)).toBe("n3w p@ss/word");

    // Rotated again (generated): still followed.
    await w.ok(`mutation($id: ID!) { rotateDatabasePassword(id: $id) { database { id } } }`, { id: db.id });
    const generated = box.decrypt((await t.db.knex("databases").where({ id: db.id }).first()).passwordEncrypted);
    expect((await variablesOf(app.id)).DB_PASSWORD).toBe(generated);

    const deleted = await w.ok(`mutation($id: ID!) { deleteDatabase(id: $id) { id affectedApplications { id } } }`, {
      id: db.id,
    });
    expect(deleted.deleteDatabase).toEqual({ id: db.id, affectedApplications: [{ id: app.id }] });
    expect(await variablesOf(app.id)).toEqual({ DB_USERNAME: "mine" });
    expect(await t.db.knex("databases").where({ id: db.id }).first()).toBeUndefined();
  });

  it("rotating an imported database's password updates the import's automatic variables", async () => {
    const w = await world();
    const imported = await w.ok(
      `mutation($input: SiteImportInput!) { importSite(input: $input) { status applicationId databaseId } }`,
      {
        input: {
          organizationId: w.org.organizationId,
          name: `imp-${Date.now()}`,
          source: { type: "docker", dockerImage: "nginx:1.27" },
          database: { type: "mongodb", name: "m", user: "u", password: "old" },
        },
      },
    );
    const { applicationId, databaseId } = imported.importSite;
    expect(imported.importSite.status).toBe("success");
    await w.ok(`mutation($id: ID!) { rotateDatabasePassword(id: $id, password: "fr3sh-pw-Q9") { database { id } } }`, {
      id: databaseId,
    });
    const vars = await variablesOf(applicationId);
    expect(vars.DB_PASSWORD).toBe("fr3sh-pw-Q9");
    expect(vars.MONGO_URL).toBe(`mongodb://u:fr3sh-pw-Q9@${vars.DB_HOST}:27017/m`);
  });
});

describe("domains and environments", () => {
  it("adds, changes and removes a domain (idempotently); hosts are unique platform-wide", async () => {
    const w = await world();
    const { createApplication: app } = await w.ok(CREATE_APP, {
      input: { environmentId: w.environmentId, name: "dom", source: { type: "docker", dockerImage: "nginx:1.27" } },
    });
    const host = `Shop-${Date.now()}.Example.com.`;
    const added = await w.ok(
      `mutation($i: AddDomainInput!) { addDomain(input: $i) { id host port https application { id } } }`,
      {
        i: { applicationId: app.id, host, port: 3000, https: false },
      },
    );
    expect(added.addDomain).toMatchObject({ host: host.toLowerCase().slice(0, -1), port: 3000, https: false });
    const taken = await w.call(`mutation($i: AddDomainInput!) { addDomain(input: $i) { id } }`, {
      i: { applicationId: app.id, host: host.toLowerCase() },
    });
    expect(taken.errors?.[0]?.extensions?.code).toBe("CONFLICT");
    // An ingress routes public names: an IP address or a name only a LAN or the cluster resolves is refused.
    for (const refused of [
      "127.0.0.1",
      "10.0.0.8",
      "printer.local",
      "api.localhost",
      "db.corp.internal",
      "kubernetes.default.svc.cluster.local",
      "shop.svc",
      // A cluster's short service names, a LAN's names, a public suffix alone.
      "kubernetes.default",
      "api.production",
      "nas.lan",
      "co.uk",
      "nas.home.arpa",
      "abc.onion",
    ]) {
      const answer = await w.call(`mutation($i: AddDomainInput!) { addDomain(input: $i) { id } }`, {
        i: { applicationId: app.id, host: refused },
      });
      expect(answer.errors?.[0]?.extensions?.code, refused).toBe("BAD_USER_INPUT");
    }
    const changed = await w.ok(
      `mutation($id: ID!, $i: UpdateDomainInput!) { updateDomain(id: $id, input: $i) { port https } }`,
      { id: added.addDomain.id, i: { useApplicationPort: true, https: true } },
    );
    expect(changed.updateDomain).toEqual({ port: null, https: true });
    const REMOVE = `mutation($a: ID!, $h: String!) { removeDomain(applicationId: $a, host: $h) { domains { host } needsDeployment } }`;
    expect((await w.ok(REMOVE, { a: app.id, h: host })).removeDomain).toEqual({ domains: [], needsDeployment: true });
    expect((await w.ok(REMOVE, { a: app.id, h: host })).removeDomain.domains).toEqual([]);
    // Names under a public suffix, and the names reserved for testing (RFC 6761), are public enough.
    for (const host of ["shop.example.co.uk", "app.xn--p1ai", "staging.example.test"]) {
      await w.ok(`mutation($i: AddDomainInput!) { addDomain(input: $i) { id } }`, {
        i: { applicationId: app.id, host },
      });
    }
  });

  it("creates, renames and deletes environments; refuses deleting one that is not empty or the last", async () => {
    const w = await world();
    const created = await w.ok(
      `mutation($p: ID!) { createEnvironment(projectId: $p, name: "staging") { id name project { id } } }`,
      {
        p: w.projectId,
      },
    );
    const env = created.createEnvironment;
    expect(env).toMatchObject({ name: "staging", project: { id: w.projectId } });
    const dup = await w.call(`mutation($p: ID!) { createEnvironment(projectId: $p, name: "staging") { id } }`, {
      p: w.projectId,
    });
    expect(dup.errors?.[0]?.extensions?.code).toBe("CONFLICT");
    expect(
      (await w.ok(`mutation($id: ID!) { renameEnvironment(id: $id, name: "qa") { name } }`, { id: env.id }))
        .renameEnvironment,
    ).toEqual({
      name: "qa",
    });
    const { createApplication: app } = await w.ok(CREATE_APP, {
      input: { environmentId: env.id, name: "in-qa", source: { type: "docker", dockerImage: "nginx:1.27" } },
    });
    const busy = await w.call(`mutation($id: ID!) { deleteEnvironment(id: $id) }`, { id: env.id });
    expect(busy.errors?.[0]?.extensions?.code).toBe("CONFLICT");
    expect(busy.errors?.[0]?.message).toMatch(/holds 1 application/);
    await w.ok(`mutation($id: ID!) { deleteApplication(id: $id) }`, { id: app.id });
    expect((await w.ok(`mutation($id: ID!) { deleteEnvironment(id: $id) }`, { id: env.id })).deleteEnvironment).toBe(
      env.id,
    );
    const last = await w.call(`mutation($id: ID!) { deleteEnvironment(id: $id) }`, { id: w.environmentId });
    expect(last.errors?.[0]?.extensions?.code).toBe("CONFLICT");
    expect(last.errors?.[0]?.message).toMatch(/only environment/);
    expect(eventNames(w.org.organizationId)).toEqual([
      "environment.created",
      "environment.updated",
      "application.created",
      "application.deleted",
      "environment.deleted",
    ]);
  });
});

describe("secrets", () => {
  it("no variable value or database password reached the log (debug level) during the tests above", () => {
    expect(logs.lines.length).toBeGreaterThan(0);
    const text = JSON.stringify(logs.lines);
    for (const secret of ["https://x.example", "https://y.example", "two words", "n3w p@ss/word", "fr3sh-pw-Q9"]) {
      expect(text, secret).not.toContain(secret);
    }
  });
});
