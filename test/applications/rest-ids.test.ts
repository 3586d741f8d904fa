/**
 * The management procedures' bodies (`POST /api/<object>.<action>`, src/modules/applications/manage.rest.ts) over
 * real HTTP against a real server and PostgreSQL: an empty-string id answers what GraphQL answers for the same
 * mutation (404 NOT_FOUND: it names nothing), and a field of the wrong JSON type is a 400 BAD_USER_INPUT whose
 * `fieldErrors` names the body field, never GraphQL's message about the variable it became — for every row.
 */
import { describe, expect, it } from "vitest";
import { MANAGE_PROCEDURES } from "../../src/modules/applications/manage.rest.ts";
import { createOrg } from "../helpers/seed.ts";
import { gql, useTestServer } from "../helpers/server.ts";

const t = useTestServer({ SKIFF_WORKER: "false" });

// biome-ignore lint/suspicious/noExplicitAny: answers are checked by assertions, not by types.
type Body = Record<string, any>;

/** POSTs `body` to procedure `name` with bearer `token`. */
async function call(name: string, body: unknown, token: string): Promise<{ status: number; body: Body }> {
  const res = await fetch(`${t.skiff.url}/api/${name}`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Body };
}

/** A body of each procedure whose id field is the empty string and whose other fields are of the right type. */
const EMPTY_ID: Record<string, Body> = {
  "application.create": { environmentId: "", name: "Shop", source: { type: "docker", dockerImage: "nginx:1" } },
  "application.update": { applicationId: "", name: "Shop" },
  "application.delete": { applicationId: "" },
  "variables.set": { applicationId: "", key: "K", value: "v" },
  "variables.setMany": { applicationId: "", variables: [{ key: "K", value: "v" }] },
  "variables.unset": { applicationId: "", key: "K" },
  "database.create": { environmentId: "", type: "postgres", name: "shop", user: "shop" },
  "database.rotatePassword": { databaseId: "" },
  "database.delete": { databaseId: "" },
  "domain.add": { applicationId: "", host: "shop.example.test" },
  "domain.update": { domainId: "", https: false },
  "domain.remove": { applicationId: "", host: "shop.example.test" },
  "environment.create": { projectId: "", name: "staging" },
  "environment.rename": { environmentId: "", name: "preview" },
  "environment.delete": { environmentId: "" },
};

describe("management procedure bodies", () => {
  it("an empty-string id answers as GraphQL answers the same mutation: 404 NOT_FOUND, on every row", async () => {
    const org = await createOrg(t.db.knex);
    const key = org.owner.apiKey;
    expect(Object.keys(EMPTY_ID).sort()).toEqual(MANAGE_PROCEDURES.map((p) => p.name).sort());
    for (const p of MANAGE_PROCEDURES) {
      const body = EMPTY_ID[p.name]!;
      const rest = await call(p.name, body, key);
      const graphql = await gql(t.skiff.url, p.operation, p.variables(body), { apiKey: key });
      expect(graphql.errors?.[0]?.extensions?.code, p.name).toBe("NOT_FOUND");
      expect({ name: p.name, status: rest.status, code: rest.body.error?.code }).toEqual({
        name: p.name,
        status: 404,
        code: "NOT_FOUND",
      });
      expect(rest.body.error.message, p.name).toBe(graphql.errors![0]!.message);
    }
  });

  it("a field of the wrong JSON type is a 400 naming the body field, on every field of every row", async () => {
    const org = await createOrg(t.db.knex);
    const key = org.owner.apiKey;
    for (const p of MANAGE_PROCEDURES) {
      for (const field of Object.keys(p.input.shape)) {
        // 5.5 is of no GraphQL input type's JSON: not a string, id, integer, boolean, enum value, object or array.
        const res = await call(p.name, { ...EMPTY_ID[p.name], [field]: 5.5 }, key);
        expect({ name: p.name, field, status: res.status, code: res.body.error?.code }).toEqual({
          name: p.name,
          field,
          status: 400,
          code: "BAD_USER_INPUT",
        });
        expect(res.body.error.fieldErrors, `${p.name} ${field}`).toEqual({ [field]: [expect.any(String)] });
        expect(res.body.error.message, `${p.name} ${field}`).not.toMatch(/Variable "\$|cannot represent/);
      }
    }
  });

  it("names the field and says what it must be: ids, scalars, enums, nested objects and list items", async () => {
    const org = await createOrg(t.db.knex);
    const key = org.owner.apiKey;
    const refused = async (name: string, body: Body) => {
      const res = await call(name, body, key);
      expect(res.status, name).toBe(400);
      expect(res.body.error.code).toBe("BAD_USER_INPUT");
      expect(res.body.error.message).not.toMatch(/Variable "\$/);
      return res.body.error.fieldErrors;
    };
    expect(await refused("application.update", { applicationId: 123 })).toEqual({
      applicationId: ["Must be a string"],
    });
    expect(await refused("application.update", { applicationId: "app_x", name: 5, port: "80" })).toEqual({
      name: ["Must be a string"],
      port: ["Must be an integer"],
    });
    expect(await refused("application.update", { applicationId: "app_x", port: 2 ** 31 })).toEqual({
      port: ["Must be at most 2147483647"],
    });
    expect(await refused("application.delete", {})).toEqual({ applicationId: ["Required"] });
    expect(await refused("application.delete", { applicationId: null })).toEqual({
      applicationId: ["Must be a string"],
    });
    expect(
      await refused("application.create", {
        environmentId: "env_x",
        name: "Shop",
        source: { type: "docker", dockerImage: 5, colour: "red" },
      }),
    ).toEqual({ "source.dockerImage": ["Must be a string"], "source.colour": ["Unknown field"] });
    expect(await refused("application.update", { applicationId: "app_x", buildType: "make" })).toEqual({
      buildType: ["Must be one of dockerfile, nixpacks"],
    });
    expect(
      await refused("variables.setMany", {
        applicationId: "app_x",
        variables: [{ key: "A", value: 1 }],
        deploy: "yes",
      }),
    ).toEqual({ "variables.0.value": ["Must be a string"], deploy: ["Must be true or false"] });
    expect(
      await refused("database.create", {
        environmentId: "env_x",
        type: "redis",
        name: "shop",
        user: "shop",
        applicationIds: ["app_x", 7],
      }),
    ).toEqual({ type: ["Must be one of mariadb, mysql, postgres, mongodb"], "applicationIds.1": ["Must be a string"] });
  });
});
