/**
 * An application's variables travel in one Kubernetes Secret (at most 1 MiB): the API refuses a change that would
 * take them past 1,000,000 bytes (names and values, UTF-8) with `BAD_USER_INPUT` naming the field — GraphQL, REST
 * (400) and `createDatabase`'s automatic variables alike — while a change that shrinks them is always taken.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningSkiff } from "../../src/server/start.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { gql, startTestServer } from "../helpers/server.ts";
import { rest } from "../site-imports/import-helpers.ts";
import { seededApplication } from "./deploy-helpers.ts";

let db: TestDatabase;
let skiff: RunningSkiff;
beforeAll(async () => {
  db = await createTestDatabase();
  skiff = await startTestServer(db.url);
});
afterAll(async () => {
  await skiff?.stop();
  await db?.drop();
});

/** `n` variables `<prefix>_<i>` of 32,768 characters each (the longest value). */
const big = (prefix: string, n: number) =>
  Array.from({ length: n }, (_, i) => ({ key: `${prefix}_${i}`, value: "v".repeat(32_768) }));

type RestError = { error: { code: string; fieldErrors?: Record<string, string[]> } };

describe("the size of an application's variables", () => {
  it("a change past 1,000,000 bytes is BAD_USER_INPUT on the field, on every surface; shrinking is allowed", async () => {
    const app = await seededApplication(db.knex);
    const auth = { apiKey: app.owner.apiKey };
    // 20 × 32,768 bytes: well within.
    const first = await rest(skiff.url, "POST", "/api/variables.setMany", auth, {
      applicationId: app.applicationId,
      variables: big("A", 20),
    });
    expect(first.status, JSON.stringify(first.body)).toBe(200);

    // 12 more make 1,048,576 bytes and more.
    const many = await rest<RestError>(skiff.url, "POST", "/api/variables.setMany", auth, {
      applicationId: app.applicationId,
      variables: big("B", 12),
    });
    expect(many.status).toBe(400);
    expect(many.body.error.code).toBe("BAD_USER_INPUT");
    expect(many.body.error.fieldErrors?.variables?.[0]).toMatch(/at most 1000000 bytes/);

    const paste = await gql(
      skiff.url,
      `mutation($id: ID!, $d: String!) { setEnvironmentVariables(applicationId: $id, dotenv: $d) { setKeys } }`,
      {
        id: app.applicationId,
        d: big("C", 12)
          .map((v) => `${v.key}=${v.value}`)
          .join("\n"),
      },
      auth,
    );
    expect(paste.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
    const pasteErrors = (paste.errors?.[0]?.extensions?.fieldErrors ?? {}) as Record<string, string[]>;
    expect(pasteErrors.dotenv).toHaveLength(1);

    // 30 × (32,768 + a 3- or 4-character name) = 983,100 bytes: one more value is too many.
    const fill = await rest(skiff.url, "POST", "/api/variables.setMany", auth, {
      applicationId: app.applicationId,
      variables: big("D", 10),
    });
    expect(fill.status, JSON.stringify(fill.body)).toBe(200);
    const one = await rest<RestError>(skiff.url, "POST", "/api/variables.set", auth, {
      applicationId: app.applicationId,
      key: "E",
      value: "v".repeat(32_768),
    });
    expect(one.status).toBe(400);
    expect(one.body.error.code).toBe("BAD_USER_INPUT");
    expect(one.body.error.fieldErrors?.value?.[0]).toMatch(/at most 1000000 bytes/);

    // A value replaced by one of the same size, and a removal, are taken.
    const same = await rest(skiff.url, "POST", "/api/variables.set", auth, {
      applicationId: app.applicationId,
      key: "A_0",
      value: "w".repeat(32_768),
    });
    expect(same.status, JSON.stringify(same.body)).toBe(200);
    const unset = await rest(skiff.url, "POST", "/api/variables.unset", auth, {
      applicationId: app.applicationId,
      key: "D_0",
    });
    expect(unset.status).toBe(200);
  });

  it("createDatabase refuses an application its automatic variables would take past the limit", async () => {
    const app = await seededApplication(db.knex);
    const auth = { apiKey: app.owner.apiKey };
    const res = await rest(skiff.url, "POST", "/api/variables.setMany", auth, {
      applicationId: app.applicationId,
      variables: big("A", 30),
    });
    expect(res.status).toBe(200);
    // 983,100 bytes; then up to 999,900 with one more value: the database's variables (its 256-character password
    // in DB_PASSWORD and DATABASE_URL alone) do not fit in the 100 bytes left.
    const pad = await rest(skiff.url, "POST", "/api/variables.set", auth, {
      applicationId: app.applicationId,
      key: "PAD",
      value: "p".repeat(999_900 - 983_100 - 3),
    });
    expect(pad.status, JSON.stringify(pad.body)).toBe(200);
    const database = await gql(
      skiff.url,
      `mutation($i: CreateDatabaseInput!) { createDatabase(input: $i) { database { id } } }`,
      {
        i: {
          environmentId: app.environmentId,
          type: "postgres",
          name: "shop",
          user: "shop",
          password: "p".repeat(256),
          applicationIds: [app.applicationId],
        },
      },
      auth,
    );
    expect(database.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
    const fieldErrors = (database.errors?.[0]?.extensions?.fieldErrors ?? {}) as Record<string, string[]>;
    expect(fieldErrors["applicationIds.0"]?.[0]).toMatch(/at most 1000000 bytes/);
    expect(await db.knex("databases").where({ environment_id: app.environmentId }).first()).toBeUndefined();
  });
});
