/**
 * The management procedures (`POST /api/<object>.<action>`, src/modules/applications/manage.rest.ts) over real HTTP
 * against a real server and PostgreSQL: one per management mutation of the schema (a mutation without one fails),
 * each answering `{ result: { data } }` with the rows changed as GraphQL changes them, and every error with its
 * status and `{ error: { message, code, fieldErrors? } }`. A session reaches every organization it belongs to, as
 * over GraphQL.
 */
import { describe, expect, it } from "vitest";
import { MANAGE_PROCEDURES } from "../../src/modules/applications/manage.rest.ts";
import { managementMutations } from "../helpers/management-mutations.ts";
import {
  addMember,
  addMembership,
  createAgentTokenFor,
  createOrg,
  createPlan,
  createProjects,
  createRegistry,
} from "../helpers/seed.ts";
import { gql, useTestServer } from "../helpers/server.ts";
import { sessionFor } from "../helpers/session.ts";

const t = useTestServer({ SKIFF_WORKER: "false" });

// biome-ignore lint/suspicious/noExplicitAny: answers are checked by assertions, not by types.
type Body = Record<string, any>;

/** POSTs `body` to procedure `name` with bearer `token` (none: no credentials). */
async function call(name: string, body: unknown, token?: string): Promise<{ status: number; body: Body }> {
  const res = await fetch(`${t.skiff.url}/api/${name}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Body };
}

describe("management procedures", () => {
  it("cover every management mutation of the schema, one each", () => {
    const fields = MANAGE_PROCEDURES.map((p) => p.field);
    expect([...fields].sort()).toEqual(managementMutations().sort());
    expect(new Set(MANAGE_PROCEDURES.map((p) => p.name)).size).toBe(MANAGE_PROCEDURES.length);
  });

  it("manage a project's environments, applications, variables, databases and domains", async () => {
    const org = await createOrg(t.db.knex);
    await createRegistry(t.db.knex, org.organizationId);
    const [projectId] = await createProjects(t.db.knex, org.organizationId, 1);
    const key = org.owner.apiKey;
    const ok = async (name: string, body: unknown) => {
      const res = await call(name, body, key);
      expect(res, name).toMatchObject({ status: 200 });
      return res.body.result.data;
    };
    const env = await ok("environment.create", { projectId, name: "staging" });
    expect(env).toMatchObject({ name: "staging", project: { id: projectId } });
    expect((await ok("environment.rename", { environmentId: env.id, name: "preview" })).name).toBe("preview");

    const app = await ok("application.create", {
      environmentId: env.id,
      name: "Shop",
      source: { type: "docker", dockerImage: "nginx:1.27" },
    });
    expect(app).toMatchObject({ name: "Shop", port: 80, needsDeployment: true, environment: { id: env.id } });
    const updated = await ok("application.update", { applicationId: app.id, port: 8080, dockerImage: "nginx:1.28" });
    expect(updated).toMatchObject({ port: 8080, source: { dockerImage: "nginx:1.28" } });

    const set = await ok("variables.set", { applicationId: app.id, key: "A", value: "secret-1" });
    expect(set.environmentVariables).toEqual([{ key: "A" }]);
    expect(JSON.stringify(set)).not.toContain("secret-1");
    const many = await ok("variables.setMany", { applicationId: app.id, dotenv: "B=2\nexport C='3'" });
    expect(many).toMatchObject({ setKeys: ["B", "C"], deployment: null });
    const unset = await ok("variables.unset", { applicationId: app.id, key: "A" });
    expect(unset.environmentVariables.map((v: Body) => v.key).sort()).toEqual(["B", "C"]);

    const db = await ok("database.create", {
      environmentId: env.id,
      type: "postgres",
      name: "shop",
      user: "shop",
      applicationIds: [app.id],
    });
    expect(db).toMatchObject({
      database: { type: "postgres", name: "shop", user: "shop" },
      applications: [{ id: app.id }],
    });
    // A generated password is answered once; a given one is not echoed.
    expect(db.generatedPassword).toMatch(/^[A-Za-z0-9]{32}$/);
    const rotated = await ok("database.rotatePassword", { databaseId: db.database.id, password: "n3w-password" });
    expect(rotated).toMatchObject({ applications: [{ id: app.id, needsDeployment: true }], generatedPassword: null });
    const generated = await ok("database.rotatePassword", { databaseId: db.database.id });
    expect(generated.generatedPassword).toMatch(/^[A-Za-z0-9]{32}$/);
    const vars = await ok("variables.set", { applicationId: app.id, key: "B", value: "2" });
    expect(JSON.stringify(vars)).not.toContain(generated.generatedPassword);

    const host = `shop-${app.id.slice(-8)}.example.test`;
    const domain = await ok("domain.add", { applicationId: app.id, host, https: false });
    expect(domain).toMatchObject({ host, https: false, port: null, application: { id: app.id } });
    expect(await ok("domain.update", { domainId: domain.id, port: 8443, https: true })).toMatchObject({
      port: 8443,
      https: true,
    });
    expect((await ok("domain.remove", { applicationId: app.id, host })).domains).toEqual([]);
    // Idempotent: removing it again changes nothing.
    expect((await ok("domain.remove", { applicationId: app.id, host })).domains).toEqual([]);

    expect(await ok("database.delete", { databaseId: db.database.id })).toMatchObject({ id: db.database.id });
    expect(await ok("application.delete", { applicationId: app.id })).toBe(app.id);
    expect(await ok("environment.delete", { environmentId: env.id })).toBe(env.id);
    const left = await t.db.knex("environments").where({ project_id: projectId }).pluck("name");
    expect(left).toEqual(["production"]);
    expect(await t.db.knex("applications").where({ project_id: projectId })).toEqual([]);
  });

  it("reach with a session what its mutation reaches over GraphQL: every organization of the session", async () => {
    const a = await createOrg(t.db.knex);
    const b = await createOrg(t.db.knex);
    // A's owner also owns B; the session acts on A (its first organization), B's project is named by id.
    await addMembership(t.db.knex, b.organizationId, a.owner.userId, "owner");
    const [projectB] = await createProjects(t.db.knex, b.organizationId, 1);
    const cookie = await sessionFor(t.db.knex, t.skiff.url, a.owner);
    const viaRest = await fetch(`${t.skiff.url}/api/environment.create`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie },
      body: JSON.stringify({ projectId: projectB, name: "rest" }),
    });
    expect(viaRest.status).toBe(200);
    const viaGraphql = await gql(
      t.skiff.url,
      'mutation($p: ID!) { createEnvironment(projectId: $p, name: "graphql") { id } }',
      { p: projectB },
      { cookie },
    );
    expect(viaGraphql.errors).toBeUndefined();
    const names = await t.db.knex("environments").where({ project_id: projectB }).orderBy("name").pluck("name");
    expect(names).toEqual(["graphql", "production", "rest"]);
    // Another organization's project stays NOT_FOUND on both.
    const [foreign] = await createProjects(t.db.knex, (await createOrg(t.db.knex)).organizationId, 1);
    const refused = await fetch(`${t.skiff.url}/api/environment.create`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie },
      body: JSON.stringify({ projectId: foreign, name: "x" }),
    });
    expect(refused.status).toBe(404);
  });

  it("answer errors with their status and code: 400, 401, 403, 404, 409, quotas", async () => {
    const plan = await createPlan(t.db.knex, { applications: 1 });
    const org = await createOrg(t.db.knex, plan);
    await createRegistry(t.db.knex, org.organizationId);
    const [projectId] = await createProjects(t.db.knex, org.organizationId, 1, {
      applicationsPerEnvironment: 1,
      domainsPerApplication: 1,
    });
    const env = await t.db.knex("environments").where({ project_id: projectId }).first("id");
    const app = await t.db.knex("applications").where({ project_id: projectId }).first("id");
    const taken = await t.db.knex("domains").where({ application_id: app.id }).first("host");
    const key = org.owner.apiKey;
    const member = await addMember(t.db.knex, org.organizationId, "member", { projectIds: [projectId!] });
    const other = await createOrg(t.db.knex);
    const agent = await createAgentTokenFor(t.db.knex, org.organizationId, org.owner);

    const unknownField = await call("application.update", { applicationId: app.id, colour: "red" }, key);
    expect(unknownField).toMatchObject({
      status: 400,
      body: { error: { code: "BAD_USER_INPUT", fieldErrors: { colour: ["Unknown field"] } } },
    });
    expect(await call("application.delete", {}, key)).toMatchObject({
      status: 400,
      body: { error: { code: "BAD_USER_INPUT", fieldErrors: { applicationId: [expect.any(String)] } } },
    });
    expect(await call("application.update", { applicationId: app.id, port: 0, healthPath: "x" }, key)).toMatchObject({
      status: 400,
      body: {
        error: {
          code: "BAD_USER_INPUT",
          fieldErrors: { port: [expect.any(String)], healthPath: [expect.any(String)] },
        },
      },
    });
    const paste = await call("variables.setMany", { applicationId: app.id, dotenv: "OK=1\n1BAD=2\nOK=3" }, key);
    expect(paste.status).toBe(400);
    expect(Object.keys(paste.body.error.fieldErrors).sort()).toEqual(["line.2", "line.3"]);

    const set = { applicationId: app.id, key: "K", value: "v" };
    expect((await call("variables.set", set)).status).toBe(401);
    expect((await call("variables.set", set, agent)).status).toBe(401);
    expect(await call("variables.set", set, member.apiKey)).toMatchObject({
      status: 403,
      body: { error: { code: "FORBIDDEN" } },
    });
    const hidden = await call("variables.set", set, other.owner.apiKey);
    const missing = await call("variables.set", { ...set, applicationId: "app_00000000000000000000000000" }, key);
    expect(hidden).toMatchObject({ status: 404, body: { error: { code: "NOT_FOUND" } } });
    expect(hidden.body.error.message.replace(app.id, "<id>")).toBe(
      missing.body.error.message.replace("app_00000000000000000000000000", "<id>"),
    );

    expect(await call("domain.add", { applicationId: app.id, host: taken.host }, key)).toMatchObject({
      status: 409,
      body: { error: { code: "CONFLICT", message: `Domain ${taken.host} is already in use` } },
    });
    expect(await call("environment.delete", { environmentId: env.id }, key)).toMatchObject({
      status: 409,
      body: { error: { code: "CONFLICT" } },
    });
    const quota = await call(
      "application.create",
      { environmentId: env.id, name: "two", source: { type: "docker", dockerImage: "nginx:1" } },
      key,
    );
    expect(quota).toMatchObject({
      status: 403,
      body: { error: { code: "FORBIDDEN", message: `Plan quota reached: applications (1 of 1 on plan "${plan}")` } },
    });
  });
});
