/**
 * Application and database names are unique in their environment (as projects in an organization and environments
 * in a project), against a real server and PostgreSQL: a second create or a rename onto a held name answers
 * CONFLICT on GraphQL and 409 on the REST procedure, changing nothing; the same name in another environment is
 * fine; two creates of one name at once leave one; an organization's export is accepted by its own import plan;
 * and the migration renames names repeated before it.
 */
import { describe, expect, it } from "vitest";
import { migrationConfig } from "../../src/db/knex.ts";
import { createTestDatabase } from "../helpers/db.ts";
import { createOrg, createProjects, createRegistry } from "../helpers/seed.ts";
import { type GqlResponse, gql, useTestServer } from "../helpers/server.ts";

const t = useTestServer();

const CREATE_APP = "mutation($i: CreateApplicationInput!) { createApplication(input: $i) { id name } }";
const CREATE_DB = "mutation($i: CreateDatabaseInput!) { createDatabase(input: $i) { database { id name } } }";
const SOURCE = { type: "docker", dockerImage: "nginx:1.27" };

/** An organization with two environments of one project. */
async function world() {
  const org = await createOrg(t.db.knex);
  await createRegistry(t.db.knex, org.organizationId);
  const [projectId] = await createProjects(t.db.knex, org.organizationId, 1, { environments: 2 });
  const envs = await t.db.knex("environments").where({ project_id: projectId }).orderBy("name").pluck("id");
  return { org, projectId: projectId!, envs: envs as string[] };
}

function codeOf(res: GqlResponse<unknown>): unknown {
  return res.errors?.[0]?.extensions?.code;
}

describe("application names", () => {
  it("a second application of one name in an environment is a CONFLICT; another environment may hold it", async () => {
    const w = await world();
    const first = await gql<{ createApplication: { id: string } }>(
      t.skiff.url,
      CREATE_APP,
      { i: { environmentId: w.envs[0], name: "shop", source: SOURCE } },
      { apiKey: w.org.owner.apiKey },
    );
    expect(first.errors).toBeUndefined();
    const again = await gql(
      t.skiff.url,
      CREATE_APP,
      { i: { environmentId: w.envs[0], name: "shop", source: SOURCE } },
      {
        apiKey: w.org.owner.apiKey,
      },
    );
    expect(codeOf(again)).toBe("CONFLICT");
    expect(again.errors?.[0]?.message).toBe('The environment already has an application named "shop"');
    // Named at its field, for a form to show it there.
    expect(again.errors?.[0]?.extensions?.fieldErrors).toEqual({
      name: ['The environment already has an application named "shop"'],
    });
    const rest = await fetch(`${t.skiff.url}/api/application.create`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${w.org.owner.apiKey}` },
      body: JSON.stringify({ environmentId: w.envs[0], name: "shop", source: SOURCE }),
    });
    expect(rest.status).toBe(409);
    const elsewhere = await gql(
      t.skiff.url,
      CREATE_APP,
      { i: { environmentId: w.envs[1], name: "shop", source: SOURCE } },
      {
        apiKey: w.org.owner.apiKey,
      },
    );
    expect(elsewhere.errors).toBeUndefined();
    const named = await t.db.knex("applications").where({ environment_id: w.envs[0], name: "shop" }).count({ n: "*" });
    expect(Number(named[0]!.n)).toBe(1);
  });

  it("a rename onto a held name is a CONFLICT and changes nothing", async () => {
    const w = await world();
    const ids: string[] = [];
    for (const name of ["shop", "blog"]) {
      const res = await gql<{ createApplication: { id: string } }>(
        t.skiff.url,
        CREATE_APP,
        { i: { environmentId: w.envs[0], name, source: SOURCE } },
        { apiKey: w.org.owner.apiKey },
      );
      ids.push(res.data!.createApplication.id);
    }
    const rename = await gql(
      t.skiff.url,
      "mutation($id: ID!, $i: UpdateApplicationInput!) { updateApplication(id: $id, input: $i) { name } }",
      { id: ids[1], i: { name: "shop", port: 8080 } },
      { apiKey: w.org.owner.apiKey },
    );
    expect(codeOf(rename)).toBe("CONFLICT");
    expect(Object.keys(rename.errors?.[0]?.extensions?.fieldErrors as object)).toEqual(["name"]);
    const blog = await t.db.knex("applications").where({ id: ids[1] }).first("name", "port");
    expect(blog).toEqual({ name: "blog", port: 80 });
  });

  it("10 creates of one name at once: one application, nine CONFLICTs", async () => {
    const w = await world();
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        gql(
          t.skiff.url,
          CREATE_APP,
          { i: { environmentId: w.envs[0], name: "race", source: SOURCE } },
          {
            apiKey: w.org.owner.apiKey,
          },
        ),
      ),
    );
    expect(results.filter((r) => !r.errors).length).toBe(1);
    expect(results.filter((r) => codeOf(r) === "CONFLICT").length).toBe(9);
  });
});

describe("database names", () => {
  it("a second database of one name in an environment is a CONFLICT; another environment may hold it", async () => {
    const w = await world();
    const input = (env: string) => ({ i: { environmentId: env, type: "postgres", name: "data", user: "u" } });
    expect(
      (await gql(t.skiff.url, CREATE_DB, input(w.envs[0]!), { apiKey: w.org.owner.apiKey })).errors,
    ).toBeUndefined();
    const again = await gql(t.skiff.url, CREATE_DB, input(w.envs[0]!), { apiKey: w.org.owner.apiKey });
    expect(codeOf(again)).toBe("CONFLICT");
    expect(again.errors?.[0]?.message).toBe('The environment already has a database named "data"');
    expect(again.errors?.[0]?.extensions?.fieldErrors).toEqual({
      name: ['The environment already has a database named "data"'],
    });
    expect(
      (await gql(t.skiff.url, CREATE_DB, input(w.envs[1]!), { apiKey: w.org.owner.apiKey })).errors,
    ).toBeUndefined();
    const rows = await t.db.knex("databases").where({ organization_id: w.org.organizationId }).count({ n: "*" });
    expect(Number(rows[0]!.n)).toBe(2);
  });
});

describe("the organization bundle", () => {
  it("an export of managed applications and databases passes its own import plan", async () => {
    const w = await world();
    // The environment of the first holds "shop" twice unless the second create is refused.
    for (const env of [...w.envs, w.envs[0]!]) {
      await gql(
        t.skiff.url,
        CREATE_APP,
        { i: { environmentId: env, name: "shop", source: SOURCE } },
        {
          apiKey: w.org.owner.apiKey,
        },
      );
      await gql(
        t.skiff.url,
        CREATE_DB,
        { i: { environmentId: env, type: "postgres", name: "data", user: "u" } },
        {
          apiKey: w.org.owner.apiKey,
        },
      );
    }
    const auth = { authorization: `Bearer ${w.org.owner.apiKey}` };
    const exported = await fetch(`${t.skiff.url}/api/organizations/${w.org.organizationId}/export`, { headers: auth });
    expect(exported.status).toBe(200);
    const bundle = await exported.json();
    const plan = await fetch(`${t.skiff.url}/api/organizations/${w.org.organizationId}/import-plan`, {
      method: "POST",
      headers: { "content-type": "application/json", ...auth },
      body: JSON.stringify({ bundle }),
    });
    expect(plan.status).toBe(200);
    const body = (await plan.json()) as { conflicts: number };
    expect(body.conflicts).toBe(0);
  });
});

describe("the migration", () => {
  it("renames names repeated in an environment before it, keeping the oldest", async () => {
    const db = await createTestDatabase();
    try {
      const name = "20261129100000_unique_names_per_environment.ts";
      await db.knex.migrate.down({ ...migrationConfig, name });
      const org = await createOrg(db.knex);
      const [projectId] = await createProjects(db.knex, org.organizationId, 1, { applicationsPerEnvironment: 3 });
      const apps = await db.knex("applications").where({ project_id: projectId }).orderBy("created_at").select("id");
      await db
        .knex("applications")
        .whereIn(
          "id",
          apps.map((a) => a.id),
        )
        .update({ name: "same" });
      await db.knex.migrate.up({ ...migrationConfig, name });
      const names = await db.knex("applications").where({ project_id: projectId }).orderBy("name").pluck("name");
      expect(names.filter((n) => n === "same")).toHaveLength(1);
      expect(names.filter((n) => /^same \(app_\w+\)$/.test(n))).toHaveLength(2);
      await expect(db.knex("applications").where({ id: apps[0]!.id }).first("name")).resolves.toEqual({ name: "same" });
    } finally {
      await db.drop();
    }
  });
});
