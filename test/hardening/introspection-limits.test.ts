/**
 * What introspection may make the server build, and the depth limit's measure. An operation selects at most one
 * `__schema`, one `_service` and ten `__type` fields, and no introspection list under an alias: beyond that it is
 * refused before execution (400 GRAPHQL_VALIDATION_FAILED naming the limit), anonymous or not, on HTTP and
 * graphql-ws, while the standard introspection query (GraphiQL's, codegen's) still answers. Depth is the nesting of
 * fields — fragment spreads add nothing, introspection fields count — and no limit is worded as a syntax error.
 */
import { getIntrospectionQuery } from "graphql";
import { beforeAll, describe, expect, it } from "vitest";
import { createOrg } from "../helpers/seed.ts";
import { gql, useTestServer } from "../helpers/server.ts";
import { wsOperation } from "../helpers/ws-operation.ts";

const t = useTestServer({ SKIFF_WORKER: "false" });
let org: Awaited<ReturnType<typeof createOrg>>;

beforeAll(async () => {
  org = await createOrg(t.db.knex);
});

/** The selection of a whole-schema introspection (types, fields, their arguments, input fields, enum values). */
const FULL_SCHEMA =
  "__schema { types { name kind fields { name args { name type { name } } type { name } } inputFields { name } enumValues { name } } }";

/** `count` aliases of `selection` in one operation. */
const aliased = (count: number, selection: string) =>
  `{ ${Array.from({ length: count }, (_, i) => `a${i}: ${selection}`).join(" ")} }`;

/** Expects `res` to be the validation refusal of a limit, its message matching `message`, not worded as syntax. */
function expectRefused(res: Awaited<ReturnType<typeof gql>>, message: RegExp) {
  expect(res.status).toBe(400);
  expect(res.data).toBeUndefined();
  expect(res.errors?.[0]?.extensions?.code).toBe("GRAPHQL_VALIDATION_FAILED");
  expect(res.errors?.[0]?.message).toMatch(message);
  for (const error of res.errors ?? []) expect(error.message).not.toMatch(/Syntax Error/);
}

describe("introspection limits", () => {
  it("refuses 30 aliases of the whole schema from an anonymous caller, without building it", async () => {
    const query = aliased(30, FULL_SCHEMA);
    const started = performance.now();
    const res = await gql(t.skiff.url, query);
    // Refused by validation, before execution (no data); the time is printed, not bounded.
    expectRefused(res, /^Limit of 1 __schema field per operation exceeded, found 30\.$/);
    console.log(`30 aliased __schema refused in ${Math.round(performance.now() - started)} ms`);
  });

  it("refuses 30 aliases of `_service { sdl }`", async () => {
    expectRefused(
      await gql(t.skiff.url, aliased(30, "_service { sdl }")),
      /^Limit of 1 _service field per operation exceeded, found 30\.$/,
    );
  });

  it("counts the fields reached through fragments, by response key", async () => {
    const query = `{ ...A ...B } fragment A on Query { x: __schema { queryType { name } } } fragment B on Query { ... on Query { y: __schema { queryType { name } } } }`;
    expectRefused(await gql(t.skiff.url, query), /^Limit of 1 __schema field per operation exceeded, found 2\.$/);
    // One response key selected twice is merged and resolved once: allowed.
    const merged = await gql(
      t.skiff.url,
      "{ __schema { queryType { name } } ...A } fragment A on Query { __schema { types { name } } }",
    );
    expect(merged.status).toBe(200);
  });

  it("allows ten `__type` fields and refuses eleven", async () => {
    const ten = await gql(t.skiff.url, aliased(10, '__type(name: "Project") { name fields { name } }'));
    expect(ten.status).toBe(200);
    expect(Object.keys(ten.data ?? {})).toHaveLength(10);
    expectRefused(
      await gql(t.skiff.url, aliased(11, '__type(name: "Project") { name }')),
      /^Limit of 10 __type fields per operation exceeded, found 11\.$/,
    );
  });

  it("refuses an introspection list under an alias, which would repeat the schema inside one __schema", async () => {
    const query = `{ __schema { ${Array.from({ length: 30 }, (_, i) => `t${i}: types { name fields { name } }`).join(" ")} } }`;
    expectRefused(
      await gql(t.skiff.url, query),
      /^Introspection list __Schema\.types cannot be selected under an alias\.$/,
    );
  });

  it("answers the standard introspection query (every option on), anonymous and with credentials", async () => {
    const query = getIntrospectionQuery({
      descriptions: true,
      specifiedByUrl: true,
      directiveIsRepeatable: true,
      schemaDescription: true,
      inputValueDeprecation: true,
      oneOf: true,
    });
    for (const auth of [{}, { apiKey: org.owner.apiKey }]) {
      const res = await gql<{ __schema: { types: unknown[] } }>(t.skiff.url, query, {}, auth);
      expect(res.errors).toBeUndefined();
      expect(res.status).toBe(200);
      expect(res.data?.__schema.types.length).toBeGreaterThan(50);
    }
  });

  it("applies the same limits on graphql-ws", async () => {
    const outcome = await wsOperation(t.skiff.url, org.owner.apiKey, aliased(2, "_service { sdl }"));
    expect(outcome.messages.map((m) => m.type)).toEqual(["error"]);
    expect(outcome.messages[0]?.payload).toMatchObject([
      { message: "Limit of 1 _service field per operation exceeded, found 2." },
    ]);
    expect(outcome.stillServes).toBe(true);
  });
});

describe("depth limit", () => {
  it("counts the nesting of fields: a chain of fragment spreads adds nothing", async () => {
    const fragments = Array.from({ length: 8 }, (_, i) =>
      i < 7 ? `fragment F${i} on Query { ...F${i + 1} }` : `fragment F${i} on Query { __typename }`,
    ).join(" ");
    const res = await gql(t.skiff.url, `{ ...F0 } ${fragments}`);
    expect(res.errors).toBeUndefined();
    expect(res.status).toBe(200);
    expect(res.data).toEqual({ __typename: "Query" });
    // Inline fragments add nothing either.
    const inline = await gql(t.skiff.url, `{ ${"... on Query { ".repeat(20)}__typename${" }".repeat(20)} }`);
    expect(inline.status).toBe(200);
  });

  it("counts introspection fields like any other: an `ofType` chain 17 deep is refused", async () => {
    const chain = `{ __type(name: "Project") { fields { type { ${"ofType { ".repeat(13)}name${" }".repeat(13)} } } } }`;
    expectRefused(await gql(t.skiff.url, chain), /^Query depth limit of 15 exceeded, found 17\.$/);
  });

  it("words the depth, alias and directive limits as validation errors, not syntax errors", async () => {
    const deep = `{ organizations { ${"projects { edges { node { organization { ".repeat(4)}id${" } } } }".repeat(4)} } }`;
    expectRefused(await gql(t.skiff.url, deep, {}, { apiKey: org.owner.apiKey }), /^Query depth limit of 15 exceeded/);
    expectRefused(
      await gql(t.skiff.url, aliased(31, "organizations { id }"), {}, { apiKey: org.owner.apiKey }),
      /^Aliases limit of 30 exceeded, found 31\.$/,
    );
    expectRefused(
      await gql(t.skiff.url, `{ ${"__typename @include(if: true) ".repeat(51)}}`),
      /^Directives limit of 50 exceeded, found 51\.$/,
    );
  });
});
