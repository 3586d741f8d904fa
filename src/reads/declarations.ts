/**
 * Declaration helpers of compiled reads (src/reads/compiler.ts): the SQL of a field that is a column, a timestamp, an
 * enum under a CHECK constraint, a relation, a root read by id or a forward connection, as the modules' `*.reads.ts`
 * files write them.
 */
import { isoTimeJsonSql } from "../db/sql-time.ts";
import { NotFoundError } from "../shared/errors.ts";
import { pageSizeMax } from "../shared/page-size.ts";
import { checkPageSize } from "../shared/pagination.ts";
import { JsonSql, orMissing, type ReadField, type ReadFieldSql, type ReadRootSql, type ReadTypes } from "./compiler.ts";
import { impliesVisible, type SqlVisibility, type TableDescriptor } from "./tables.ts";

/**
 * A text value (SQL `sql`) that a CHECK constraint limits to the names of the field's GraphQL enum, as its JSON
 * string: GraphQL names ([_A-Za-z][_0-9A-Za-z]*) need no escaping, so the value is quoted as it is (`to_json`
 * would cost a type lookup per value). Only for values the database constrains: test/db/enum-constraints.test.ts
 * checks that each one refuses any other text. SQL null stays null.
 */
export function checkedEnumJson(sql: string): JsonSql {
  return new JsonSql(`('"' || ${sql} || '"')`);
}

/** A column of the row holding an enum's names under a CHECK constraint ({@link checkedEnumJson}). */
export const checkedEnum =
  (name: string): ReadFieldSql =>
  ({ alias }) =>
    checkedEnumJson(`${alias}.${name}`);

/** A column of the row as a JSON scalar (text, integer, boolean; null stays null). */
export const column =
  (name: string): ReadFieldSql =>
  ({ alias }) =>
    `${alias}.${name}`;

/**
 * The timestamptz `sql` as the `DateTime` scalar's JSON string (src/db/sql-time.ts `isoTimeJsonSql`), SQL null for
 * null. Written directly: the text holds only digits, `-`, `:`, `.`, `T` and `Z`, nothing JSON escapes.
 */
export function isoTimeJson(sql: string): JsonSql {
  return new JsonSql(isoTimeJsonSql(sql));
}

/** A timestamptz column of the row as the `DateTime` scalar's text ({@link isoTimeJson}). */
export const timestamp =
  (name: string): ReadFieldSql =>
  ({ alias }) =>
    isoTimeJson(`${alias}.${name}`);

/**
 * The page-size argument `name` of `field` (its schema default when absent or null) checked against 1..max, `max`
 * being the argument's `@pageSize` in the SDL (src/shared/page-size.ts).
 * @throws BadUserInputError when out of range (src/shared/pagination.ts `checkPageSize`); Error when the argument
 *   declares no `@pageSize` (a schema mistake).
 */
export function pageSizeArg(field: ReadField, name: string): number {
  const arg = field.definition.args.find((a) => a.name === name);
  const max = pageSizeMax(arg);
  if (max === undefined) throw new Error(`${field.definition.name}(${name}) declares no @pageSize`);
  const value = field.args[name] ?? arg?.defaultValue;
  return checkPageSize(typeof value === "number" ? value : Number.NaN, max, name);
}

/** A to-one relation field ({@link belongsTo}): its target and foreign key, and its SQL without the target's condition. */
interface BelongsTo {
  target: TableDescriptor;
  foreignKey: string;
  /** The field's SQL where the row holding the key being visible makes the target visible ({@link bindRelations}). */
  implied: ReadFieldSql;
}

const relations = new WeakMap<ReadFieldSql, BelongsTo>();

/**
 * A field holding the row of `target` that the row's column `foreignKey` points at, when the caller sees it by
 * `target`'s own visibility (null when none or invisible), e.g. `Application.project`. Where the visibility of the
 * row holding the key implies the target's, the condition is left out ({@link bindRelations}): the same answer.
 */
export function belongsTo(target: TableDescriptor, foreignKey: string): ReadFieldSql {
  const joined =
    (visible: boolean): ReadFieldSql =>
    ({ compiler, alias, nodes }) =>
      compiler.joinedOne(target.typeName, alias, nodes, target.table, `${alias}.${foreignKey}`, (x) =>
        visible ? target.visible(compiler, x) : "",
      );
  const field = joined(true);
  relations.set(field, { target, foreignKey, implied: joined(false) });
  return field;
}

/**
 * `types` with each {@link belongsTo} field of a type whose rows' visibility implies the target's
 * (`impliesVisible`: the target is the row's parent, or the row's descriptor `shows` the key) compiled without the
 * target's condition, which would hold anyway. `descriptors`: the descriptor of each type, by name.
 */
export function bindRelations(types: ReadTypes, descriptors: Readonly<Record<string, TableDescriptor>>): ReadTypes {
  return Object.fromEntries(
    Object.entries(types).map(([typeName, fields]) => {
      const source = descriptors[typeName];
      const bound = Object.entries(fields).map(([name, sql]) => {
        const relation = relations.get(sql);
        const implied = source && relation && impliesVisible(source, relation.foreignKey, relation.target);
        return [name, implied ? relation.implied : sql] as const;
      });
      return [typeName, Object.fromEntries(bound)];
    }),
  );
}

/** The condition "the organization id `organizationIdSql` (SQL) is one the caller belongs to". */
export function callerOrganizationSql(sql: SqlVisibility, organizationIdSql: string): string {
  return `${organizationIdSql} = any(${sql.param([...sql.caller.orgs.keys()])}::text[])`;
}

/**
 * `condition` (SQL) on the children of one parent row, read by their foreign key: `(condition) is true` selects the
 * same rows (a null condition keeps no row in a WHERE clause either) but is no index condition, so the planner finds
 * the children by the foreign key's index and filters them with `condition`. Left as it is, a visibility's
 * `organization_id = $n` offered the organization's index instead, and a table without statistics yet (a new
 * database, a table just filled) was read through it — every row of the organization visited for each parent (the
 * agent API's list of 50 projects answered at half its rate until autovacuum analyzed the tables). Empty when
 * `condition` is.
 */
export function childCondition(condition: string): string {
  return condition ? `(${condition}) is true` : "";
}

/**
 * A field holding the rows of `target` whose column `foreignKey` points at the row, those the caller sees by
 * `target`'s visibility, ordered by `orderBy` (SQL on the child's columns, `$` standing for its alias; default id),
 * e.g. `Project.environments`. Rows visible with their parent ({@link TableDescriptor.parent}) need only their
 * {@link TableDescriptor.narrow} condition, if any: the row they hang from is visible.
 */
export const hasMany =
  (target: TableDescriptor, foreignKey: string, orderBy = "$.id"): ReadFieldSql =>
  ({ compiler, alias, nodes }) => {
    const x = compiler.alias();
    const order = orderBy.replaceAll("$", x);
    const throughParent = target.parent?.foreignKey === foreignKey;
    const condition = childCondition(
      throughParent ? (target.narrow?.(compiler, x) ?? "") : target.visible(compiler, x),
    );
    const visible = condition ? ` and ${condition}` : "";
    const from = `from ${target.table} ${x} where ${x}.${foreignKey} = ${alias}.id${visible}`;
    return compiler.list(target.typeName, x, nodes, from, order);
  };

/**
 * A root field `field(id: ID!)` answering the visible row of `source` with that id, or the error `NOT_FOUND` (the
 * same for a missing row and one the caller may not see).
 */
export function rootById(source: TableDescriptor): ReadRootSql {
  const { typeName } = source;
  return orMissing(
    ({ compiler, args, nodes }) => {
      const x = compiler.alias();
      const where = `where ${x}.id = ${compiler.param(String(args.id))} and ${source.visible(compiler, x)}`;
      return compiler.one(typeName, x, nodes, `from ${source.table} ${x} ${where}`);
    },
    (args) => new NotFoundError(typeName, String(args.id)),
  );
}

/** The opaque cursor of src/shared/pagination.ts (`base64url("c:" + id)`, no padding) computed in SQL. */
export function cursorSql(idSql: string): string {
  return `rtrim(translate(encode(convert_to('c:' || ${idSql}, 'UTF8'), 'base64'), E'+/\\n', '-_'), '=')`;
}

/**
 * A forward `*Connection` (edges { cursor node }, nodes, pageInfo, totalCount) over the rows of `table` (aliased `p` in
 * `where`) matching `where`, ordered by id (`descending`: newest ids first), the `first` of them after id `afterId`
 * and `offset` more (the `ConnectionModel` shape of src/shared/pagination.ts), nodes compiled as `nodeType`.
 * `totalCount` counts every matching row. Null: not compilable.
 */
export function connectionSql(
  field: ReadField,
  page: {
    table: string;
    where: string;
    first: number;
    afterId: string | null;
    nodeType: string;
    descending?: boolean;
    offset?: number;
  },
): JsonSql | null {
  const { compiler } = field;
  const [order, reverse] = page.descending ? ["desc", "asc"] : ["asc", "desc"];
  const after = page.afterId ? ` and p.id ${page.descending ? "<" : ">"} ${compiler.param(page.afterId)}` : "";
  const offset = page.offset ? ` offset ${compiler.param(page.offset)}` : "";
  /** The page's rows (up to `limit`) as a subquery aliased `alias`. */
  const rows = (alias: string, limit: number) =>
    `(select * from ${page.table} p where ${page.where}${after} order by p.id ${order} limit ${compiler.param(limit)}${offset}) ${alias}`;
  /** The cursor of the page's first (`asc`) or last row in page order. */
  const edgeCursor = (direction: string) => {
    const a = compiler.alias();
    return `(select ${cursorSql(`${a}.id`)} from ${rows(a, page.first)} order by ${a}.id ${direction} limit 1)`;
  };
  return compiler.objectWith(field.returnType, "", field.nodes, {
    edges: (edges) => {
      const a = compiler.alias();
      const rowsOf = compiler.joinedRows(a, `from ${rows(a, page.first)}`, () =>
        compiler.objectWith(edges.returnType, a, edges.nodes, {
          cursor: () => cursorSql(`${a}.id`),
          node: (node) => compiler.object(page.nodeType, a, node.nodes),
        }),
      );
      return rowsOf.item && compiler.aggregate(rowsOf.item, rowsOf.from, `${a}.id ${order}`);
    },
    nodes: (nodes) => {
      const a = compiler.alias();
      const rowsOf = compiler.joinedRows(a, `from ${rows(a, page.first)}`, () =>
        compiler.object(page.nodeType, a, nodes.nodes),
      );
      return rowsOf.item && compiler.aggregate(rowsOf.item, rowsOf.from, `${a}.id ${order}`);
    },
    pageInfo: (info) =>
      compiler.objectWith(info.returnType, "", info.nodes, {
        hasNextPage: () => `((select count(*) from ${rows(compiler.alias(), page.first + 1)}) > ${page.first})`,
        hasPreviousPage: () => "false",
        startCursor: () => edgeCursor(order),
        endCursor: () => edgeCursor(reverse),
      }),
    totalCount: () => `(select count(*)::int from ${page.table} p where ${page.where})`,
  });
}
