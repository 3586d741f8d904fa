/**
 * Compiled reads become named prepared statements once repeated (docs/performance.md), planned once per connection
 * and kept until the next ANALYZE. The read of objects by id (a mutation's payload, re-read with the field's
 * sub-selection: src/reads/compiler.ts `byIds`) must keep finding its rows by primary key when its plan was made on
 * a new database, whose empty tables the planner takes for a few pages: a generic plan that scans the table would
 * scan it on every call as it grows.
 */
import { describe, expect, it } from "vitest";
import { genericPlan } from "../helpers/generic-plan.ts";
import { createOrg } from "../helpers/seed.ts";
import { gql, useTestServer } from "../helpers/server.ts";

const t = useTestServer({ SKIFF_WORKER: "false" });

describe("a read by ids on a new database", () => {
  it("has a generic plan that looks its rows up by primary key", async () => {
    const { owner } = await createOrg(t.db.knex);
    const statements: Array<{ sql: string; bindings: unknown[] }> = [];
    const seen = (q: { sql: string; bindings: unknown[] }) => statements.push(q);
    t.skiff.services.knex.on("query", seen);
    try {
      const res = await gql(
        t.skiff.url,
        'mutation { createProject(input: { name: "plans" }) { id name } }',
        {},
        { apiKey: owner.apiKey },
      );
      expect(res.errors).toBeUndefined();
    } finally {
      t.skiff.services.knex.off("query", seen);
    }
    const read = statements.find(({ sql }) => sql.includes("with ordinality") && sql.includes("projects"));
    expect(read).toBeDefined();
    // The statement as PostgreSQL gets it (`$n` parameters).
    const text = t.db.knex
      .raw(read!.sql, read!.bindings as never[])
      .toSQL()
      .toNative().sql;
    const plan = await genericPlan(t.db.knex, text);
    expect(plan).toMatch(/Index Scan using projects_pkey on projects/);
    expect(plan).not.toMatch(/Seq Scan on projects/);
  });
});
