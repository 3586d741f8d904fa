/**
 * The database mutations' edges, over real HTTP against a real server and PostgreSQL: concurrent deletions of one
 * database (one succeeds, the others answer NOT_FOUND and are audited as refused), a password rotation racing a
 * deletion (ok or NOT_FOUND), and the `root` user refused for
 * mysql and mariadb — by `createDatabase` and by a site import's `database`, naming the field.
 */
import { describe, expect, it } from "vitest";
import { createOrg, createProjects, createRegistry } from "../helpers/seed.ts";
import { gql, useTestServer } from "../helpers/server.ts";

const t = useTestServer();

const CREATE_DB = "mutation($i: CreateDatabaseInput!) { createDatabase(input: $i) { database { id } } }";
const DELETE_DB = "mutation($id: ID!) { deleteDatabase(id: $id) { id } }";

/** An owner's organization with a registry and one project; its environment and a GraphQL caller. */
async function world() {
  const org = await createOrg(t.db.knex);
  await createRegistry(t.db.knex, org.organizationId);
  const [projectId] = await createProjects(t.db.knex, org.organizationId, 1, { applicationsPerEnvironment: 1 });
  const env = await t.db.knex("environments").where({ project_id: projectId }).first("id");
  const call = (query: string, variables: Record<string, unknown>) =>
    gql<Record<string, { database: { id: string } }>>(t.skiff.url, query, variables, { apiKey: org.owner.apiKey });
  return { org, environmentId: env.id as string, call };
}

describe("deleteDatabase", () => {
  it("10 concurrent deletions of one database: one succeeds, 9 answer NOT_FOUND, one ok audit entry", async () => {
    const w = await world();
    const created = await w.call(CREATE_DB, {
      i: { environmentId: w.environmentId, type: "postgres", name: "race", user: "app" },
    });
    const id = created.data!.createDatabase!.database.id;
    const answers = await Promise.all(Array.from({ length: 10 }, () => w.call(DELETE_DB, { id })));
    const codes = answers.map((a) => a.errors?.[0]?.extensions?.code ?? "ok").sort();
    expect(codes).toEqual([...Array(9).fill("NOT_FOUND"), "ok"]);
    expect(await t.db.knex("databases").where({ id })).toEqual([]);
    const outcomes = await t.db
      .knex("audit_events")
      .where({ action: "deleteDatabase" })
      .whereRaw("? = any(target_ids)", [id])
      .pluck("outcome");
    expect(outcomes.sort()).toEqual(["ok", ...Array(9).fill("refused")]);
  });

  it("a password rotation racing the deletion answers ok or NOT_FOUND, as for any unknown id", async () => {
    const w = await world();
    const ROTATE = "mutation($id: ID!) { rotateDatabasePassword(id: $id) { database { id } } }";
    const seen = new Set<string>();
    for (let round = 0; round < 5; round++) {
      const created = await w.call(CREATE_DB, {
        i: { environmentId: w.environmentId, type: "postgres", name: `rot${round}`, user: "app" },
      });
      const id = created.data!.createDatabase!.database.id;
      const [, ...rotations] = await Promise.all([
        w.call(DELETE_DB, { id }),
        ...Array.from({ length: 4 }, () => w.call(ROTATE, { id })),
      ]);
      for (const r of rotations) seen.add(String(r.errors?.[0]?.extensions?.code ?? "ok"));
    }
    expect([...seen].filter((code) => code !== "ok" && code !== "NOT_FOUND")).toEqual([]);
  });
});

describe("the root user", () => {
  it("is refused for mysql and mariadb (any case) by createDatabase and a site import, naming `user`", async () => {
    const w = await world();
    for (const [type, user] of [
      ["mysql", "root"],
      ["mariadb", "ROOT"],
      ["mysql", "Root"],
    ]) {
      const res = await w.call(CREATE_DB, { i: { environmentId: w.environmentId, type, name: "r", user } });
      expect(res.errors?.[0]?.extensions?.code, JSON.stringify(res.errors ?? res.data)).toBe("BAD_USER_INPUT");
      expect((res.errors![0]!.extensions!.fieldErrors as Record<string, string[]>).user).toEqual([
        `Must not be root for ${type}: the image creates root itself and refuses it as the user`,
      ]);
      const imported = await fetch(`${t.skiff.url}/api/site-import`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${w.org.owner.apiKey}` },
        body: JSON.stringify({
          organizationId: w.org.organizationId,
          name: `root-${type}-${user}`,
          source: { type: "docker", dockerImage: "nginx:1.27" },
          database: { type, name: "r", user, password: "secret" },
        }),
      });
      const body = (await imported.json()) as { details?: { fieldErrors?: Record<string, string[]> } };
      expect(imported.status, JSON.stringify(body)).toBe(400);
      expect(body.details?.fieldErrors?.["database.user"]).toHaveLength(1);
    }
    expect(await t.db.knex("databases").where({ organization_id: w.org.organizationId })).toEqual([]);
    // Other engines have no such user; another name is fine on mysql.
    for (const [type, user] of [
      ["postgres", "root"],
      ["mongodb", "root"],
      ["mysql", "rooted"],
    ]) {
      const res = await w.call(CREATE_DB, { i: { environmentId: w.environmentId, type, name: `ok-${type}`, user } });
      expect(res.errors, `${type} ${user}`).toBeUndefined();
    }
  });
});
