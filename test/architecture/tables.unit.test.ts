/**
 * Tables owned: every table has one owning module, declared by `tables: [...]` in its manifest
 * (`src/modules/<domain>/index.ts`), and only the owner's files name it — in SQL strings (`from`, `join`, `into`,
 * `update`, `delete from`), knex builders (`knex("t")`, `.join("t as x")`, `.from("t")`), Objection models
 * (`tableName = "t"`) and table descriptors (`defineTable("Type", "t", …)`). Others use the named reads, writes and SQL fragments the owner exports. Migrations
 * (`migrations/`) and the layers below the modules are outside this rule; a module below another that needs its
 * SQL takes it handed in (the access module's standing sources, the first run's key store).
 *
 * Writes and reads across modules go through named functions of the owner's public surface (`setApplicationHealth`,
 * `findUserByEmail`, …): no module exports a whole-table handle, a function handing out an unrun query on a whole
 * table (`applicationsTable(db)` → `db("applications")`), with which another module could read or write any row
 * and column.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "../..");
const modulesDir = join(root, "src/modules");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(path);
    return e.name.endsWith(".ts") ? [path] : [];
  });
}

/** Every table the migrations create. */
const tables = new Set(
  sourceFiles(join(root, "migrations")).flatMap((f) =>
    [
      ...readFileSync(f, "utf8").matchAll(
        /createTable\(\s*["']([a-z_]+)["']|create table (?:if not exists )?([a-z_]+)/gi,
      ),
    ].map((m) => (m[1] ?? m[2])!),
  ),
);

/** Owner of each table, from the manifests' `tables: [...]`. */
const owner = new Map<string, string>();
const duplicates: string[] = [];
for (const dir of readdirSync(modulesDir, { withFileTypes: true }).filter((e) => e.isDirectory())) {
  const manifest = readFileSync(join(modulesDir, dir.name, "index.ts"), "utf8");
  const list = /\btables:\s*\[([^\]]*)\]/.exec(manifest)?.[1] ?? "";
  for (const [, table] of list.matchAll(/["']([a-z_]+)["']/g)) {
    if (owner.has(table!)) duplicates.push(`${table} (${owner.get(table!)} and ${dir.name})`);
    owner.set(table!, dir.name);
  }
}

/** Tables of the authentication layer (src/auth, better-auth) and the kernel: no module owns them. */
const OUTSIDE_MODULES = new Set([
  "accounts",
  "verifications",
  "jwks",
  "two_factors",
  "auth_attempt_limits",
  "secret_checks",
  "job_workers",
  "job_superseded",
  "event_log_horizon",
]);

/** Code without comments (string contents stay: SQL lives there). */
function withoutComments(code: string): string {
  return code.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`\\])\/\/.*$/gm, "$1");
}

/** Tables named by SQL text, knex builders or Objection models in `code`. */
function tablesNamed(code: string): string[] {
  const found: string[] = [];
  const add = (name: string | undefined) => {
    if (name && tables.has(name)) found.push(name);
  };
  // SQL keywords followed by a bare table name (inside strings and template literals).
  for (const m of code.matchAll(/\b(?:from|join|into|update|delete\s+from|references)\s+(?:only\s+)?([a-z_]+)\b/gi))
    add(m[1]);
  // knex builders and joins: knex("t"), trx("t as x"), .from("t"), .join("t as x", …), .into("t"), .table("t").
  for (const m of code.matchAll(
    /(?:\b(?:knex|trx|db|tx|k|conn)|\.(?:knex|from|join|leftJoin|innerJoin|rightJoin|leftOuterJoin|into|table))\(\s*["'`]([a-z_]+)(?:\s+as\s+\w+)?["'`]/g,
  ))
    add(m[1]);
  // Objection models.
  for (const m of code.matchAll(/\btableName\s*=\s*["']([a-z_]+)["']/g)) add(m[1]);
  // Table descriptors (src/reads/tables.ts): defineTable("Type", "t", …), defineChildTable("Type", "t", …).
  for (const m of code.matchAll(/\bdefine(?:Child)?Table\(\s*["'][A-Za-z]+["'],\s*["']([a-z_]+)["']/g)) add(m[1]);
  return found;
}

/**
 * Exported functions of `code` that hand out a whole table: the body is only `return db("t")`, `return db("t as x")`
 * or `return db(alias ? \`t as ${alias}\` : "t")`, nothing restricting it.
 */
function tableHandles(code: string): string[] {
  const quoted = "[`\"'][a-z_]+(?:\\s+as\\s+[^`\"']*)?[`\"']";
  const handle = new RegExp(
    `export\\s+(?:async\\s+)?function\\s+(\\w+)\\([^)]*\\)[^{]*\\{\\s*return\\s+\\w+\\(\\s*(?:[^()?]*\\?\\s*)?${quoted}(?:\\s*:\\s*${quoted})?\\s*\\)\\s*;\\s*\\}`,
    "g",
  );
  return [...code.matchAll(handle)].map((m) => m[1]!);
}

/** Every exported whole-table handle in the modules, as `file: name`. */
const handles = sourceFiles(modulesDir).flatMap((file) =>
  tableHandles(withoutComments(readFileSync(file, "utf8"))).map((name) => `${relative(root, file)}: ${name}`),
);

/** Every (file, table) pair where a module's file names a table it does not own. */
const touches = sourceFiles(modulesDir).flatMap((file) => {
  const rel = relative(modulesDir, file).split(/[\\/]/);
  const mod = rel.length > 1 ? rel[0]! : null;
  const named = [...new Set(tablesNamed(withoutComments(readFileSync(file, "utf8"))))];
  return named
    .filter((t) => !OUTSIDE_MODULES.has(t) && owner.get(t) !== mod)
    .map((t) => `${relative(root, file)} → ${t} (${owner.get(t) ?? "no owner"})`);
});

describe("tables owned", () => {
  it("every table the migrations create has exactly one owning module (or belongs below the modules)", () => {
    expect(tables.size).toBeGreaterThan(30);
    expect(duplicates).toEqual([]);
    const unowned = [...tables].filter((t) => !owner.has(t) && !OUTSIDE_MODULES.has(t)).sort();
    expect(unowned).toEqual([]);
    const unknown = [...owner.keys()].filter((t) => !tables.has(t));
    expect(unknown).toEqual([]);
  });

  it("sees the owners' own references (the scanner reads SQL, knex and models)", () => {
    const own = (file: string) => tablesNamed(withoutComments(readFileSync(join(root, file), "utf8")));
    expect(own("src/modules/applications/application.tables.ts")).toContain("applications");
    expect(own("src/modules/deployments/deployment.reads.ts")).toContain("deployments");
    expect(tablesNamed('knex("deployments as d").join("applications as a", "a.id", "d.application_id")')).toEqual([
      "deployments",
      "applications",
    ]);
    expect(tablesNamed("select 1 from organizations o join plans p on p.id = o.plan_id")).toEqual([
      "organizations",
      "plans",
    ]);
  });

  it("no module names another module's table", () => {
    console.log(`cross-module table touches: ${touches.length}`);
    expect(touches).toEqual([]);
  });

  it("sees a whole-table handle, and not a restricted query", () => {
    expect(
      tableHandles(
        'export function aTable(db: Db, alias?: string): Knex.QueryBuilder {\n  return db(alias ? `a as \u0024{alias}` : "a");\n}',
      ),
    ).toEqual(["aTable"]);
    expect(tableHandles('export function bTable(db: Knex) {\n  return db("b");\n}')).toEqual(["bTable"]);
    expect(tableHandles('export function bOf(db: Knex, id: string) {\n  return db("b").where({ id });\n}')).toEqual([]);
    expect(tableHandles('function privateTable(db: Knex) {\n  return db("b");\n}')).toEqual([]);
  });

  it("no module exports a whole-table handle: other modules call the owner's named reads and writes", () => {
    expect(handles).toEqual([]);
  });
});
