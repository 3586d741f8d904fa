/**
 * Table descriptors: each table a module owns, described once by that module — the GraphQL type its rows are, the
 * table, and which rows the caller sees, as SQL. Compiled reads find a type's rows by id with it
 * ({@link sqlRowsOf}), relations join it and apply its visibility (`belongsTo` / `hasMany`, declarations.ts), and
 * services read its rows by id with the same visibility (by-id.ts). The owning module exports its descriptors from
 * its index.ts; the Objection model of the table takes its `tableName` from the descriptor. The descriptor lists the
 * table's columns: the compiled reads derive every field of its type that is a plain column from that list
 * (columns.ts), and test/db/descriptor-columns.test.ts holds the list equal to the migrated table's.
 */
import type { Knex } from "knex";
import type { ReadCaller, ReadRows } from "./compiler.ts";

/**
 * What a visibility condition is written with: the caller, bind parameters and fresh table aliases. The compiler
 * (src/reads/compiler.ts `ReadCompiler`) is one; a by-id read (by-id.ts) is another.
 */
export interface SqlVisibility {
  readonly caller: ReadCaller;
  /** A bind parameter holding `value`, placed anywhere in the SQL. */
  param(value: Knex.Value): string;
  /** `condition` (SQL with `?` bindings, e.g. the access module's `visibleProjectSql`) with its bindings as parameters. */
  condition(condition: { sql: string; bindings: Knex.Value[] }): string;
  /** A table alias not used elsewhere in the statement. */
  alias(): string;
}

/** The condition "row `alias` is visible to the caller" (SQL), written with `sql`. */
export type VisibleSql = (sql: SqlVisibility, alias: string) => string;

/** One table of a module: the GraphQL type of its rows, the table (primary key `id`) and its visibility. */
export interface TableDescriptor {
  /** The GraphQL object type its rows are (e.g. `Project`). */
  readonly typeName: string;
  /** The table's name in SQL (e.g. `projects`), or a subquery whose rows it reads (in parentheses). */
  readonly table: string;
  /** Every column of the table's rows, snake_case as in SQL (e.g. `["id", "name", "created_at"]`). */
  readonly columns: readonly string[];
  /** Which rows the caller sees (SQL condition on the row aliased `alias`). */
  readonly visible: VisibleSql;
  /**
   * Set when a row is visible when the row of `parent` its column `foreignKey` names is (an environment and its
   * project) and {@link TableDescriptor.narrow} holds: a relation from that parent to these rows needs only `narrow`.
   */
  readonly parent?: { readonly descriptor: TableDescriptor; readonly foreignKey: string };
  /**
   * Of a child table: what the caller must also meet besides seeing the parent row (SQL condition on the row aliased
   * `alias`), or the empty string when nothing narrows it for this caller.
   */
  readonly narrow?: VisibleSql;
  /**
   * Foreign key columns whose rows (of the descriptor given) are visible whenever a row of this table is (an
   * application's project: a grant on an application shows its project), so a relation through them needs no
   * condition of its own (declarations.ts `bindRelations`). test/graph/differential.test.ts checks each against
   * seeded data for every kind of caller.
   */
  readonly shows?: Readonly<Record<string, TableDescriptor>>;
  /**
   * False for rows read only inside another row's SQL (an application's environment variables): compiled reads do not
   * find them by id ({@link sqlRowsOf}), though their types' column fields are derived all the same.
   */
  readonly foundById?: boolean;
}

/** What a descriptor may add: {@link TableDescriptor.shows} and {@link TableDescriptor.foundById}. */
export type TableOptions = Pick<TableDescriptor, "shows" | "foundById">;

/**
 * The descriptor of table `table` (columns `columns`) holding rows of GraphQL type `typeName`, visible when
 * `visible` holds; `options`: see {@link TableOptions}.
 */
export function defineTable(
  typeName: string,
  table: string,
  columns: readonly string[],
  visible: VisibleSql,
  options: TableOptions = {},
): TableDescriptor {
  return { typeName, table, columns, visible, ...options };
}

/**
 * The descriptor of table `table` (rows of type `typeName`, columns `columns`) whose rows are visible when the row of
 * `parent` their column `foreignKey` names is — and, with `options.narrow`, that condition holds too (an environment
 * of a project seen only as the container of a granted application). The parent's condition is
 * `foreignKey in (the visible parent ids)`, uncorrelated: a semi-join PostgreSQL plans once per statement, not a
 * subquery per row.
 */
export function defineChildTable(
  typeName: string,
  table: string,
  columns: readonly string[],
  parent: TableDescriptor,
  foreignKey: string,
  options: TableOptions & { narrow?: VisibleSql } = {},
): TableDescriptor {
  const { narrow, ...rest } = options;
  return {
    typeName,
    table,
    columns,
    ...rest,
    parent: { descriptor: parent, foreignKey },
    ...(narrow ? { narrow } : {}),
    visible: (sql, alias) => {
      const p = sql.alias();
      const own = `${alias}.${foreignKey} in (select ${p}.id from ${parent.table} ${p} where ${parent.visible(sql, p)})`;
      const narrowed = narrow?.(sql, alias);
      return narrowed ? `(${own} and ${narrowed})` : own;
    },
  };
}

/**
 * Whether a row of `source` being visible makes the row of `target` its column `foreignKey` names visible: `target`
 * is the parent `source` is visible with, or `source` {@link TableDescriptor.shows} it.
 */
export function impliesVisible(source: TableDescriptor, foreignKey: string, target: TableDescriptor): boolean {
  const parent = source.parent;
  if (parent?.foreignKey === foreignKey && parent.descriptor === target) return true;
  return source.shows?.[foreignKey] === target;
}

/** The compiled reads' row sources (`ReadRows`, by type name) of `descriptors`: those found by id. */
export function sqlRowsOf(descriptors: readonly TableDescriptor[]): ReadRows {
  return Object.fromEntries(descriptors.filter((d) => d.foundById !== false).map((d) => [d.typeName, d]));
}
