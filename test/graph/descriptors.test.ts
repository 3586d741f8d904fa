/**
 * Table descriptors (src/reads/tables.ts) that say a relation's target is visible whenever the row holding the key is
 * — a child visible with its parent, or a descriptor's `shows` — let compiled reads leave the target's condition out
 * (src/reads/declarations.ts `bindRelations`). This checks each such statement on seeded data, for every kind of
 * caller (owner, a member limited to a project, one limited to an application, another organization's owner): no
 * visible row points at an invisible target.
 */
import type { Knex } from "knex";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AccessScope } from "../../src/modules/access/index.ts";
import { sqlCallerOf } from "../../src/modules/context.ts";
import { moduleSqlRows } from "../../src/modules/index.ts";
import type { SqlReadCaller, SqlVisibility, TableDescriptor } from "../../src/reads/index.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { addMember, createOrg, createProjects } from "../helpers/seed.ts";

let db: TestDatabase;
const callers: Record<string, { userId: string; organizationId: string }> = {};

beforeAll(async () => {
  db = await createTestDatabase();
  const shape = {
    environments: 2,
    applicationsPerEnvironment: 2,
    deploymentsPerApplication: 2,
    domainsPerApplication: 1,
  };
  const a = await createOrg(db.knex);
  const projectIds = await createProjects(db.knex, a.organizationId, 4, shape);
  const b = await createOrg(db.knex);
  await createProjects(db.knex, b.organizationId, 2, shape);
  const [app] = await db.knex("applications").where("project_id", projectIds[3]).select("id");
  const projectMember = await addMember(db.knex, a.organizationId, "member", { projectIds: [projectIds[1]!] });
  const applicationMember = await addMember(db.knex, a.organizationId, "member", { applicationIds: [app.id] });
  callers.owner = { userId: a.owner.userId, organizationId: a.organizationId };
  callers.projectMember = { userId: projectMember.userId, organizationId: a.organizationId };
  callers.applicationMember = { userId: applicationMember.userId, organizationId: a.organizationId };
  callers.otherOwner = { userId: b.owner.userId, organizationId: b.organizationId };
});

afterAll(async () => {
  await db?.drop();
});

/** Writes conditions with `?` bindings in text order. */
class Writer implements SqlVisibility {
  readonly caller: SqlReadCaller;
  readonly bindings: Knex.Value[] = [];
  private aliases = 0;
  constructor(caller: SqlReadCaller) {
    this.caller = caller;
  }
  param(value: Knex.Value): string {
    this.bindings.push(value);
    return "?";
  }
  condition(condition: { sql: string; bindings: Knex.Value[] }): string {
    let next = 0;
    return condition.sql.replace(/\?/g, () => this.param(condition.bindings[next++] ?? null));
  }
  alias(): string {
    this.aliases += 1;
    return `w${this.aliases}`;
  }
}

/** Every (source, foreign key, target) whose target's visibility the source's implies. */
const implications = Object.values(moduleSqlRows as Record<string, TableDescriptor>).flatMap((source) => [
  ...(source.parent ? [{ source, foreignKey: source.parent.foreignKey, target: source.parent.descriptor }] : []),
  ...Object.entries(source.shows ?? {}).map(([foreignKey, target]) => ({ source, foreignKey, target })),
]);

describe("descriptors' implied visibility", () => {
  it("covers the relations the hot reads use", () => {
    const names = implications.map((i) => `${i.source.typeName}.${i.foreignKey}→${i.target.typeName}`);
    expect(names).toEqual(
      expect.arrayContaining([
        "Application.project_id→Project",
        "Application.environment_id→Environment",
        "Environment.project_id→Project",
        "Domain.application_id→Application",
      ]),
    );
  });

  it.each(["owner", "projectMember", "applicationMember", "otherOwner"])(
    "holds on the seeded data for %s: no visible row points at an invisible target",
    async (name) => {
      const { userId, organizationId } = callers[name]!;
      const scope = new AccessScope(db.knex, { userId, organizationId, via: "apiKey" });
      const caller = await sqlCallerOf(scope, new Date());
      let pairs = 0;
      for (const { source, foreignKey, target } of implications) {
        // Order of the condition writes = order of the `?` in the text: the target's condition comes first.
        const w = new Writer(caller);
        const targetVisible = target.visible(w, "t");
        const sourceVisible = source.visible(w, "s");
        const { rows } = await db.knex.raw(
          `select count(*)::int as pairs, count(*) filter (where not (${targetVisible}))::int as hidden
          from ${source.table} s join ${target.table} t on t.id = s.${foreignKey} where ${sourceVisible}`,
          w.bindings,
        );
        expect(rows[0].hidden, `${source.typeName}.${foreignKey} → ${target.typeName}`).toBe(0);
        pairs += rows[0].pairs;
      }
      expect(pairs).toBeGreaterThan(0);
    },
  );
});
