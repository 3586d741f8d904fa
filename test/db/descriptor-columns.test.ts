/**
 * Each table descriptor (src/reads/tables.ts) lists its table's columns: the list equals the columns of the migrated
 * table in information_schema (for a descriptor reading a subquery, the columns its rows have), so a migration adding
 * or dropping a column fails here until the descriptor says so. Every descriptor exported by a module's
 * `*.tables.ts` is checked.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TableDescriptor } from "../../src/reads/index.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";

const root = join(import.meta.dirname, "../../src/modules");

/** Every descriptor exported by a `*.tables.ts` under src/modules, with the file it comes from. */
async function descriptors(): Promise<Array<{ file: string; descriptor: TableDescriptor }>> {
  const found: Array<{ file: string; descriptor: TableDescriptor }> = [];
  for (const dir of readdirSync(root, { withFileTypes: true }).filter((d) => d.isDirectory())) {
    for (const name of readdirSync(join(root, dir.name)).filter((f) => f.endsWith(".tables.ts"))) {
      const exports = (await import(join(root, dir.name, name))) as Record<string, unknown>;
      for (const value of Object.values(exports)) {
        if (value && typeof value === "object" && "columns" in value && "table" in value && "typeName" in value) {
          found.push({ file: `${dir.name}/${name}`, descriptor: value as TableDescriptor });
        }
      }
    }
  }
  return found;
}

const all = await descriptors();

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db?.drop();
});

/** The columns of `table` (a table's name, or a subquery in parentheses) in the migrated database, sorted. */
async function columnsOf(table: string): Promise<string[]> {
  if (table.startsWith("(")) {
    const result = await db.knex.raw(`select * from ${table} x limit 0`);
    return (result.fields as Array<{ name: string }>).map((f) => f.name).sort();
  }
  const result = await db.knex.raw(
    "select column_name as name from information_schema.columns where table_schema = 'public' and table_name = ?",
    [table],
  );
  return (result.rows as Array<{ name: string }>).map((r) => r.name).sort();
}

describe("table descriptors' columns", () => {
  it("finds the descriptors of every module", () => {
    expect(all.length).toBeGreaterThanOrEqual(20);
  });

  it.each(all.map(({ file, descriptor }) => ({ file, type: descriptor.typeName, descriptor })))(
    "$file $type lists its table's columns",
    async ({ descriptor }) => {
      const columns = await columnsOf(descriptor.table);
      expect(columns.length).toBeGreaterThan(0);
      expect([...descriptor.columns].sort()).toEqual(columns);
    },
  );
});
