/**
 * The compiled reads write the values of `checkedEnum`/`checkedEnumJson` declarations, and of the enum fields derived
 * from the descriptors' columns (src/reads/columns.ts), as they are, quoted, without JSON escaping
 * (src/reads/compiler.ts). That is safe only because the database refuses any other text in those columns: for
 * every such declaration and derived field, this test finds its column here and checks, on a copy of the table with
 * its CHECK constraints (`like … including constraints`, NOT NULL dropped so that only the checks apply), that the
 * enum's values are accepted and a quote, a backslash, a newline or an unknown name refused.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { moduleColumnFields } from "../../src/modules/index.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";

/**
 * Each checked column: where it is read (a reads file under src/modules declaring it by hand, or `<Type> (derived)`
 * for a field derived from its descriptor), the column (or `steps`' values), table and an accepted value.
 */
const CHECKED: Array<{ source: string; column: string; table: string; good: string }> = [
  { source: "SiteImport (derived)", column: "status", table: "site_imports", good: "partial" },
  { source: "SiteImport (derived)", column: "error_step", table: "site_imports", good: "domain_creation" },
  {
    source: "site-imports/site-import.reads.ts",
    column: "steps",
    table: "site_imports",
    good: '{"deployment":"skipped"}',
  },
  { source: "Member (derived)", column: "role", table: "members", good: "admin" },
  { source: "Invitation (derived)", column: "role", table: "invitations", good: "member" },
  { source: "applications/application.reads.ts", column: "source_type", table: "applications", good: "docker" },
  { source: "Application (derived)", column: "source_type", table: "applications", good: "docker" },
  { source: "Application (derived)", column: "build_type", table: "applications", good: "nixpacks" },
  { source: "Database (derived)", column: "type", table: "databases", good: "postgres" },
  { source: "GitProvider (derived)", column: "type", table: "git_providers", good: "gitlab" },
  { source: "deployments/deployment.reads.ts", column: "level", table: "deployment_logs", good: "warn" },
  { source: "deployments/deployment.reads.ts", column: "status", table: "deployments", good: "cancelled" },
  {
    source: "applications/application.reads.ts",
    column: "application_status",
    table: "applications",
    good: "deploying",
  },
  { source: "audit/audit.reads.ts", column: "actor_kind", table: "audit_events", good: "SYSTEM" },
  { source: "audit/audit.reads.ts", column: "credential_kind", table: "audit_events", good: "AGENT_TOKEN" },
  { source: "audit/audit.reads.ts", column: "surface", table: "audit_events", good: "PROCEDURE" },
];

/** Text no enum name holds: each must be refused. */
const BAD_TEXT = ['owner"', "a\\b", "line\nbreak", "unknown"];
/** `steps` objects with a value outside the statuses: each must be refused. */
const BAD_STEPS = ['{"deployment":"do\\"ne"}', '{"deployment":{"x":1}}', '{"deployment":1}', '{"deployment":"later"}'];

/**
 * The checked columns the declarations name, as `file column` (the steps' statuses as `steps`), and those of the
 * derived enum fields, as `Type (derived) column`.
 */
function declaredColumns(): string[] {
  const root = join(import.meta.dirname, "../../src/modules");
  const found: string[] = [];
  for (const dir of readdirSync(root, { withFileTypes: true })) {
    if (!dir.isDirectory()) continue;
    for (const name of readdirSync(join(root, dir.name)).filter((f) => f.endsWith(".reads.ts"))) {
      const text = readFileSync(join(root, dir.name, name), "utf8");
      for (const m of text.matchAll(/checkedEnum\("(\w+)"\)/g)) found.push(`${dir.name}/${name} ${m[1]}`);
      for (const m of text.matchAll(/checkedEnumJson\(`coalesce\(\$\{\w+\}\.(\w+) ->>/g)) {
        found.push(`${dir.name}/${name} ${m[1]}`);
      }
    }
  }
  for (const f of moduleColumnFields) {
    if (f.helper === "checkedEnum" && !f.declared) found.push(`${f.typeName} (derived) ${f.column}`);
  }
  return [...new Set(found)].sort();
}

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db?.drop();
});

describe("columns written without JSON escaping", () => {
  it("every checked declaration's column is listed here", () => {
    expect(declaredColumns()).toEqual([...new Set(CHECKED.map((c) => `${c.source} ${c.column}`))].sort());
  });

  it.each(CHECKED)("$table.$column accepts its names and refuses anything else", async ({ table, column, good }) => {
    const copy = `check_${table}_${column}`;
    await db.knex.raw(`create temp table ${copy} (like ${table} including constraints)`);
    try {
      const notNull = await db.knex.raw(
        `select attname from pg_attribute where attrelid = ?::regclass and attnum > 0 and attnotnull`,
        [copy],
      );
      for (const { attname } of notNull.rows as Array<{ attname: string }>) {
        await db.knex.raw(`alter table ${copy} alter column ?? drop not null`, [attname]);
      }
      const insert = (value: string) => db.knex.raw(`insert into ${copy} (??) values (?)`, [column, value]);
      await insert(good);
      for (const bad of column === "steps" ? BAD_STEPS : BAD_TEXT) {
        await expect(insert(bad), bad).rejects.toMatchObject({ code: "23514" });
      }
    } finally {
      await db.knex.raw(`drop table if exists ${copy}`);
    }
  });
});
