/**
 * The column fields derived from a descriptor (src/reads/columns.ts): which fields of its type are plain columns,
 * the helper each is read with, and that a field declared by hand keeps its declaration.
 */
import { parse } from "graphql";
import { describe, expect, it } from "vitest";
import {
  checkedEnum,
  column,
  columnFields,
  defineTable,
  type ReadField,
  type ReadFieldSql,
  snakeCase,
  timestamp,
  withColumnFields,
} from "../../src/reads/index.ts";

const typeDefs = parse(`
  enum Color { RED GREEN }
  type Owner { id: ID! }
  type Thing {
    id: ID!
    name: String
    createdAt: DateTime!
    color: Color!
    tags: [String!]!
    owner: Owner
    count(max: Int): Int
    label: String
    secretHash: String
  }
  extend type Thing { updatedAt: DateTime }
`);

const thingTable = defineTable(
  "Thing",
  "things",
  ["id", "name", "created_at", "color", "tags", "owner", "count", "updated_at", "secret_hash", "label"],
  () => "true",
);

/** The SQL `sql` writes for a row aliased `t`. */
function sqlOf(sql: ReadFieldSql | undefined): string | undefined {
  const written = sql?.({ alias: "t" } as ReadField);
  return typeof written === "string" ? written : written?.sql;
}

describe("column fields derived from a descriptor", () => {
  it("turns camelCase into the column's snake_case", () => {
    expect(snakeCase("createdAt")).toBe("created_at");
    expect(snakeCase("id")).toBe("id");
  });

  it("finds the scalar and enum fields that are listed columns, with their helpers", () => {
    const label: ReadFieldSql = ({ alias }) => `coalesce(${alias}.label, '')`;
    const fields = columnFields([thingTable], typeDefs, { Thing: { label } });
    expect(fields.map((f) => [f.field, f.column, f.helper, f.declared])).toEqual([
      ["id", "id", "column", false],
      ["name", "name", "column", false],
      ["createdAt", "created_at", "timestamp", false],
      ["color", "color", "checkedEnum", false],
      ["label", "label", "column", true],
      ["secretHash", "secret_hash", "column", false],
      ["updatedAt", "updated_at", "timestamp", false],
    ]);
    const reads = withColumnFields({ Thing: { label } }, fields);
    expect(reads.Thing?.label).toBe(label);
    expect(sqlOf(reads.Thing?.id)).toBe(sqlOf(column("id")));
    expect(sqlOf(reads.Thing?.createdAt)).toBe(sqlOf(timestamp("created_at")));
    expect(sqlOf(reads.Thing?.color)).toBe(sqlOf(checkedEnum("color")));
    expect(Object.keys(reads.Thing ?? {}).sort()).toEqual(
      ["color", "createdAt", "id", "label", "name", "secretHash", "updatedAt"].sort(),
    );
  });

  it("derives nothing for a type without a descriptor", () => {
    expect(columnFields([], typeDefs, {})).toEqual([]);
  });
});
