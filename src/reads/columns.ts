/**
 * Fields that are plain columns, derived from the table descriptors (tables.ts) and the GraphQL schema: a field of a
 * descriptor's type whose name's snake_case is one of the descriptor's columns, and whose type is a scalar or an
 * enum (not a list, no arguments), reads that column as it is — `DateTime` as a timestamp, an enum as a value under
 * a CHECK constraint (test/db/enum-constraints.test.ts checks each derived one against the database), any other
 * scalar as the column's JSON value. A field declared by hand keeps its declaration; a column that must never be
 * exposed is not a field of the type.
 */
import { type DocumentNode, Kind, type TypeNode } from "graphql";
import { snakeCase } from "../db/column-names.ts";
import type { ReadFieldSql, ReadTypes } from "./compiler.ts";
import { checkedEnum, column, timestamp } from "./declarations.ts";
import type { TableDescriptor } from "./tables.ts";

/** The declaration helper (declarations.ts) a plain column's field is read with. */
export type ColumnHelper = "column" | "timestamp" | "checkedEnum";

/** One field of a descriptor's type that is a plain column of its table. */
export interface ColumnField {
  /** The GraphQL object type (the descriptor's `typeName`). */
  readonly typeName: string;
  /** The field's name (camelCase of `column`). */
  readonly field: string;
  /** The column's name in SQL (snake_case). */
  readonly column: string;
  /** The descriptor's table (or subquery) holding the column. */
  readonly table: string;
  readonly helper: ColumnHelper;
  /** Whether a module declares the field by hand (then it keeps that declaration). */
  readonly declared: boolean;
}

const HELPERS: Record<ColumnHelper, (name: string) => ReadFieldSql> = { column, timestamp, checkedEnum };

/** The name of a non-list type (`T` or `T!`), or null for a list. */
function scalarName(type: TypeNode): string | null {
  if (type.kind === Kind.NON_NULL_TYPE) return scalarName(type.type);
  return type.kind === Kind.NAMED_TYPE ? type.name.value : null;
}

/**
 * Every field of the types of `descriptors` that is a plain column of the descriptor's table, declared by hand (in
 * `declared`) or not, with the helper the derivation reads it with; `typeDefs`: the merged SDL of schema/*.graphql.
 */
export function columnFields(
  descriptors: readonly TableDescriptor[],
  typeDefs: DocumentNode,
  declared: ReadTypes,
): ColumnField[] {
  const enums = new Set<string>();
  const composite = new Set<string>();
  for (const d of typeDefs.definitions) {
    if (d.kind === Kind.ENUM_TYPE_DEFINITION || d.kind === Kind.ENUM_TYPE_EXTENSION) enums.add(d.name.value);
    if (
      d.kind === Kind.OBJECT_TYPE_DEFINITION ||
      d.kind === Kind.INTERFACE_TYPE_DEFINITION ||
      d.kind === Kind.UNION_TYPE_DEFINITION
    )
      composite.add(d.name.value);
  }
  const byType = new Map(descriptors.map((d) => [d.typeName, d]));
  const found: ColumnField[] = [];
  for (const d of typeDefs.definitions) {
    if (d.kind !== Kind.OBJECT_TYPE_DEFINITION && d.kind !== Kind.OBJECT_TYPE_EXTENSION) continue;
    const descriptor = byType.get(d.name.value);
    if (!descriptor) continue;
    for (const f of d.fields ?? []) {
      const type = scalarName(f.type);
      const name = snakeCase(f.name.value);
      if (!type || composite.has(type) || f.arguments?.length || !descriptor.columns.includes(name)) continue;
      const helper = type === "DateTime" ? "timestamp" : enums.has(type) ? "checkedEnum" : "column";
      const { typeName, table } = descriptor;
      const byHand = declared[typeName]?.[f.name.value] !== undefined;
      found.push({ typeName, field: f.name.value, column: name, table, helper, declared: byHand });
    }
  }
  return found;
}

/** `types` (the fields declared by hand) with each of `fields` not declared by hand added, read with its helper. */
export function withColumnFields(types: ReadTypes, fields: readonly ColumnField[]): ReadTypes {
  const result: Record<string, Record<string, ReadFieldSql>> = {};
  for (const [typeName, declared] of Object.entries(types)) result[typeName] = { ...declared };
  for (const f of fields) {
    if (f.declared) continue;
    result[f.typeName] = { ...result[f.typeName], [f.field]: HELPERS[f.helper](f.column) };
  }
  return result;
}

export { snakeCase };
