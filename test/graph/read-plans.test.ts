/**
 * Compiled reads become named prepared statements once repeated (docs/performance.md), planned once per connection
 * and kept until the next ANALYZE. The read of objects by id (a mutation's payload, re-read with the field's
 * sub-selection: src/reads/compiler.ts `byIds`) must keep finding its rows by primary key when its plan was made on
 * a new database, whose empty tables the planner takes for a few pages: a generic plan that scans the table would
 * scan it on every call as it grows. Children read from their parent (an environment's applications and databases) must
 * be found by their foreign key's index on a database without statistics yet, not through the visibility's
 * organization index (every row of the organization visited for each parent).
 */
import { describe, expect, it } from "vitest";
import { genericPlan } from "../helpers/generic-plan.ts";
import { createOrg, createProjects } from "../helpers/seed.ts";
import { gql, useTestServer } from "../helpers/server.ts";

const t = useTestServer({ SKIFF_WORKER: "false" });

/** The statements the server sends while `run` runs, as Knex reports them (`?` placeholders, their values). */
async function statementsOf(run: () => Promise<void>): Promise<Array<{ sql: string; bindings: unknown[] }>> {
  const statements: Array<{ sql: string; bindings: unknown[] }> = [];
  const seen = (q: { sql: string; bindings: unknown[] }) => statements.push(q);
  t.skiff.services.knex.on("query", seen);
  try {
    await run();
  } finally {
    t.skiff.services.knex.off("query", seen);
  }
  return statements;
}

/** `statement` as PostgreSQL gets it (`$n` parameters). */
function native(statement: { sql: string; bindings: unknown[] }): string {
  return t.db.knex
    .raw(statement.sql, statement.bindings as never[])
    .toSQL()
    .toNative().sql;
}

describe("a read by ids on a new database", () => {
  it("has a generic plan that looks its rows up by primary key", async () => {
    const { owner } = await createOrg(t.db.knex);
    const statements = await statementsOf(async () => {
      const res = await gql(
        t.skiff.url,
        'mutation { createProject(input: { name: "plans" }) { id name } }',
        {},
        { apiKey: owner.apiKey },
      );
      expect(res.errors).toBeUndefined();
    });
    const read = statements.find(({ sql }) => sql.includes("with ordinality") && sql.includes("projects"));
    expect(read).toBeDefined();
    const plan = await genericPlan(t.db.knex, native(read!));
    expect(plan).toMatch(/Index Scan using projects_pkey on projects/);
    expect(plan).not.toMatch(/Seq Scan on projects/);
  });
});

describe("children read from their parent on a database without statistics", () => {
  it("are found by their foreign key's index, the visibility filtering them", async () => {
    const { organizationId, owner } = await createOrg(t.db.knex);
    await createProjects(t.db.knex, organizationId, 50, { environments: 2, applicationsPerEnvironment: 2 });
    const statements = await statementsOf(async () => {
      const res = await gql(
        t.skiff.url,
        "{ projects(first: 50) { nodes { environments { applications { id domains { host } } databases { id } } } } }",
        {},
        { apiKey: owner.apiKey },
      );
      expect(res.errors).toBeUndefined();
    });
    const read = statements.find(({ sql }) => sql.includes("from applications") && sql.includes("from databases"));
    expect(read).toBeDefined();
    // The plan of its first executions (with the values) and the generic one it may keep.
    const { rows } = await t.db.knex.raw<{ rows: Array<{ "QUERY PLAN": string }> }>(
      `explain ${read!.sql}`,
      read!.bindings as never[],
    );
    for (const plan of [rows.map((r) => r["QUERY PLAN"]).join("\n"), await genericPlan(t.db.knex, native(read!))]) {
      expect(plan).toMatch(/using applications_environment_id\w* on applications/);
      expect(plan).toMatch(/using databases_environment_id\w* on databases/);
      expect(plan).not.toMatch(/_organization_id_index/);
    }
  });
});
