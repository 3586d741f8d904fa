/**
 * The limits of an application's variables, over real HTTP against a real server and PostgreSQL: at most 200 per
 * application with a database's automatic variables counted (createDatabase's `applicationIds`, a site import's
 * `envVars` with its `database`), a change that adds none always allowed (an application past the limit can be
 * brought back under it), and names of at most 253 characters (a Kubernetes Secret key) on every path, a stored
 * longer name still removable.
 */
import { describe, expect, it } from "vitest";
import { newId } from "../../src/db/ids.ts";
import { createSecretBox } from "../../src/db/secrets.ts";
import { createOrg, createProjects, createRegistry, TEST_SECRET } from "../helpers/seed.ts";
import { type GqlResponse, gql, useTestServer } from "../helpers/server.ts";

const t = useTestServer();
const box = createSecretBox(TEST_SECRET);

const SET = `mutation($a: ID!, $k: String!, $v: String!) { setEnvironmentVariable(applicationId: $a, key: $k, value: $v) { id } }`;
const SET_MANY = `mutation($a: ID!, $v: [EnvironmentVariableInput!], $d: String) {
  setEnvironmentVariables(applicationId: $a, variables: $v, dotenv: $d) { setKeys } }`;
const UNSET = `mutation($a: ID!, $k: String!) { unsetEnvironmentVariable(applicationId: $a, key: $k) { id } }`;
const CREATE_DB = `mutation($i: CreateDatabaseInput!) { createDatabase(input: $i) { database { id } applications { id } } }`;

/** An owner's organization with a registry and one application; its ids and a GraphQL caller. */
async function world() {
  const org = await createOrg(t.db.knex);
  await createRegistry(t.db.knex, org.organizationId);
  const [projectId] = await createProjects(t.db.knex, org.organizationId, 1, { applicationsPerEnvironment: 1 });
  const app = await t.db.knex("applications").where({ project_id: projectId }).first("id", "environment_id");
  const call = (query: string, variables: Record<string, unknown>) =>
    gql(t.skiff.url, query, variables, { apiKey: org.owner.apiKey });
  return { org, applicationId: app.id as string, environmentId: app.environmentId as string, call };
}

/** Stores `count` variables `V0`… on `applicationId` directly (as any earlier path may have left them). */
async function storeVariables(applicationId: string, count: number): Promise<void> {
  await storeKeys(
    applicationId,
    Array.from({ length: count }, (_, i) => `V${i}`),
  );
}

/** Stores variables named `keys` on `applicationId` directly. */
async function storeKeys(applicationId: string, keys: string[]): Promise<void> {
  await t.db.knex("environment_variables").insert(
    keys.map((key) => ({
      id: newId("envVar"),
      application_id: applicationId,
      key,
      value_encrypted: box.encrypt("x"),
    })),
  );
}

/** The variable names of `applicationId`. */
async function keysOf(applicationId: string): Promise<string[]> {
  return t.db.knex("environment_variables").where({ application_id: applicationId }).orderBy("key").pluck("key");
}

/** The BAD_USER_INPUT extensions of `res` (fails the test on any other answer). */
function badInput(res: GqlResponse) {
  expect(res.errors?.[0]?.extensions?.code, JSON.stringify(res.errors ?? res.data)).toBe("BAD_USER_INPUT");
  return res.errors![0]!.extensions as { fieldErrors: Record<string, string[]>; formErrors: string[] };
}

describe("at most 200 variables per application", () => {
  it("an application past the limit can still unset and replace variables, but not add one", async () => {
    const w = await world();
    await storeVariables(w.applicationId, 204);
    expect((await w.call(UNSET, { a: w.applicationId, k: "V0" })).errors).toBeUndefined();
    expect((await w.call(SET, { a: w.applicationId, k: "V1", v: "replaced" })).errors).toBeUndefined();
    const replaced = await w.call(SET_MANY, {
      a: w.applicationId,
      v: [
        { key: "V2", value: "a" },
        { key: "V3", value: "b" },
      ],
    });
    expect(replaced.errors).toBeUndefined();
    // Adds one while removing none: 204 → 204 is allowed, 203 → 204 is not.
    const added = badInput(await w.call(SET, { a: w.applicationId, k: "NEW", v: "1" }));
    expect(added.formErrors).toEqual(["At most 200 variables per application"]);
    expect(await keysOf(w.applicationId)).toHaveLength(203);
  });

  it("createDatabase refuses an application its automatic variables would take past 200, naming it", async () => {
    const w = await world();
    await storeVariables(w.applicationId, 200);
    const res = await w.call(CREATE_DB, {
      i: {
        environmentId: w.environmentId,
        type: "mysql",
        name: "full",
        user: "app",
        applicationIds: [w.applicationId],
      },
    });
    expect(badInput(res).fieldErrors["applicationIds.0"]).toEqual([
      "At most 200 variables per application (this change makes 206)",
    ]);
    expect(await keysOf(w.applicationId)).toHaveLength(200);
    expect(await t.db.knex("databases").where({ organization_id: w.org.organizationId })).toEqual([]);

    // Names it holds already are replaced, not added: 195 others and the postgres database's 5 names make 200.
    await t.db.knex("environment_variables").where({ application_id: w.applicationId }).delete();
    await storeVariables(w.applicationId, 195);
    await storeKeys(w.applicationId, ["DB_HOST", "DB_DATABASE", "DB_USERNAME", "DB_PASSWORD", "DATABASE_URL"]);
    const created = await w.call(CREATE_DB, {
      i: {
        environmentId: w.environmentId,
        type: "postgres",
        name: "fits",
        user: "app",
        applicationIds: [w.applicationId],
      },
    });
    expect(created.errors).toBeUndefined();
    expect(await keysOf(w.applicationId)).toHaveLength(200);
  });

  it("a site import refuses envVars that with the database's automatic variables exceed 200", async () => {
    const w = await world();
    const envVars = Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`V${i}`, "x"]));
    const post = async (path: string, vars: Record<string, string>) => {
      const res = await fetch(`${t.skiff.url}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${w.org.owner.apiKey}` },
        body: JSON.stringify({
          organizationId: w.org.organizationId,
          name: `vars-${Math.random().toString(36).slice(2, 8)}`,
          source: { type: "docker", dockerImage: "nginx:1.27" },
          database: { type: "mysql", name: "site", user: "site", password: "secret" },
          envVars: vars,
        }),
      });
      return {
        status: res.status,
        body: (await res.json()) as { details?: { fieldErrors?: Record<string, string[]> } },
      };
    };
    for (const path of ["/api/site-import/preview", "/api/site-import"]) {
      const res = await post(path, envVars);
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.details?.fieldErrors?.envVars).toEqual([
        "At most 200 variables, the database's 6 automatic variables included (this import makes 206)",
      ]);
    }
    expect(await t.db.knex("projects").where({ organization_id: w.org.organizationId })).toHaveLength(1);
    // Overriding a generated name adds nothing: 194 of its own and DB_HOST fit with the database's 6.
    const fits = Object.fromEntries(Object.entries(envVars).slice(0, 194));
    const ok = await post("/api/site-import/preview", { ...fits, DB_HOST: "elsewhere.example.test" });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
  });
});

describe("variable names of at most 253 characters", () => {
  const name = (n: number) => `K${"_".repeat(n - 1)}`;

  it("are accepted up to 253 and refused from 254 on every path, naming the field", async () => {
    const w = await world();
    expect((await w.call(SET, { a: w.applicationId, k: name(253), v: "1" })).errors).toBeUndefined();
    for (const n of [254, 255]) {
      const one = badInput(await w.call(SET, { a: w.applicationId, k: name(n), v: "1" }));
      expect(one.fieldErrors.key?.[0]).toMatch(/at most 253 characters/);
      const many = badInput(await w.call(SET_MANY, { a: w.applicationId, v: [{ key: name(n), value: "1" }] }));
      expect(many.fieldErrors["variables.0.key"]?.[0]).toMatch(/at most 253 characters/);
      const paste = badInput(await w.call(SET_MANY, { a: w.applicationId, d: `${name(n)}=1\n` }));
      expect(paste.fieldErrors["line.1"]?.[0]).toMatch(/at most 253 characters/);
      const unset = badInput(await w.call(UNSET, { a: w.applicationId, k: name(n) }));
      expect(unset.fieldErrors.key?.[0]).toMatch(/at most 253 characters/);
    }
    expect(await keysOf(w.applicationId)).toEqual([name(253)]);
  });

  it("a stored longer name can still be removed", async () => {
    const w = await world();
    await t.db.knex("environment_variables").insert({
      id: newId("envVar"),
      application_id: w.applicationId,
      key: name(255),
      value_encrypted: box.encrypt("x"),
    });
    expect((await w.call(UNSET, { a: w.applicationId, k: name(255) })).errors).toBeUndefined();
    expect(await keysOf(w.applicationId)).toEqual([]);
  });
});
