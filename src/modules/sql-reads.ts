/**
 * Compiled reads (issue 15): a query operation whose every selected field a module declares compilable is
 * answered by ONE SQL statement that builds the whole `data` object as JSON inside PostgreSQL (`json_build_object`
 * per object, `json_agg` per list, correlated subqueries per level), the way PostGraphile answers, instead of
 * resolvers, loaders and graphql-js completing thousands of fields. Visibility is part of the SQL (the same
 * conditions the loaders use, from src/modules/access/access-scope.ts).
 *
 * Modules declare, in their manifests (`sqlReads`), the SQL of the fields that are plain columns or plain
 * relations of their types ({@link SqlReadTypes}). Anything else — a field without SQL, an argument out of range,
 * a type without declaration, more than 50 keys in one object — makes the compiler answer null, and the operation
 * runs through the executor as before: the compiled read is an optimisation with one meaning, never a second
 * behaviour. `test/graph/compiled-reads.test.ts` checks both paths give the same answer for every caller.
 */
import {
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLObjectType,
  type GraphQLSchema,
  getArgumentValues,
  getNamedType,
  isObjectType,
  type OperationDefinitionNode,
} from "graphql";
import { collectFields, collectSubfields } from "graphql/execution/collectFields.js";
import type { Knex } from "knex";
import { isoTimeSql } from "../db/sql-time.ts";
import type { OrgAccess, SqlCondition } from "./access/index.ts";

/** What one compiled field receives. */
export interface SqlReadField {
  /** The compiler (parameters, aliases, nested objects and lists). */
  compiler: SqlReadCompiler;
  /** The SQL alias of the row of the object the field belongs to (root fields: none). */
  alias: string;
  /** The field's arguments, coerced with the request's variables. */
  args: Record<string, unknown>;
  /** Every node selecting the field under this response key (their selection sets merge). */
  nodes: readonly FieldNode[];
  /** The field's GraphQL return type, named (e.g. `Project` for `[Project!]!`). */
  returnType: string;
}

/**
 * The SQL of one field: an expression whose value is the field's JSON value (a scalar, or JSON built with the
 * compiler), or null when this selection cannot be compiled (the operation then runs through the executor).
 */
export type SqlReadFieldSql = (field: SqlReadField) => string | null;

/** Compilable fields per GraphQL object type name, declared by the modules owning the types. */
export type SqlReadTypes = Record<string, Record<string, SqlReadFieldSql>>;

/** Who reads: the organization the request acts on and the caller's standing in its organizations. */
export interface SqlReadCaller {
  organizationId: string | null;
  orgs: ReadonlyMap<string, OrgAccess>;
}

/** json_build_object takes at most 100 arguments (50 keys). */
const MAX_KEYS = 50;
/** Parameters are marked «n» while the statement is built (no generated SQL contains «), `?` in the end. */
const PLACEHOLDER = /«(\d+)»/g;

/** Compiles one operation; one instance per request. */
export class SqlReadCompiler {
  readonly caller: SqlReadCaller;
  private readonly schema: GraphQLSchema;
  private readonly types: SqlReadTypes;
  private readonly fragments: Record<string, FragmentDefinitionNode>;
  private readonly variables: Record<string, unknown>;
  private readonly values: Knex.Value[] = [];
  private aliases = 0;

  /** `fragments` by name and `variables` coerced, of the operation's document. */
  constructor(
    schema: GraphQLSchema,
    types: SqlReadTypes,
    fragments: Record<string, FragmentDefinitionNode>,
    variables: Record<string, unknown>,
    caller: SqlReadCaller,
  ) {
    this.schema = schema;
    this.types = types;
    this.fragments = fragments;
    this.variables = variables;
    this.caller = caller;
  }

  /** A bind parameter holding `value` (safe in any position of the generated SQL). */
  param(value: Knex.Value): string {
    this.values.push(value);
    return `«${this.values.length - 1}»`;
  }

  /** `condition` with its `?` bindings turned into parameters of this statement. */
  condition(condition: SqlCondition): string {
    let next = 0;
    return condition.sql.replace(/\?/g, () => this.param(condition.bindings[next++] ?? null));
  }

  /** A table alias not used elsewhere in the statement, e.g. `t7`. */
  alias(): string {
    this.aliases += 1;
    return `t${this.aliases}`;
  }

  /** The JSON object of type `typeName` for the row `alias`, with the sub-selection of `nodes`; null: not compilable. */
  object(typeName: string, alias: string, nodes: readonly FieldNode[]): string | null {
    const declared = this.types[typeName];
    return declared ? this.objectWith(typeName, alias, nodes, declared) : null;
  }

  /**
   * Like {@link object}, with the SQL of the type's fields given by `declared` instead of the modules' declarations
   * (for objects whose fields depend on their parent, e.g. a connection's edges and page info).
   */
  objectWith(
    typeName: string,
    alias: string,
    nodes: readonly FieldNode[],
    declared: Record<string, SqlReadFieldSql>,
  ): string | null {
    const type = this.schema.getType(typeName);
    if (!isObjectType(type)) return null;
    const selected = collectSubfields(this.schema, this.fragments, this.variables, type, nodes);
    return this.fields(type, alias, selected, declared);
  }

  /**
   * A JSON array of objects of type `typeName`, one per row of `from` (SQL text after `select`, e.g.
   * `from domains t3 where t3.application_id = t2.id`, its rows aliased `alias`), ordered by `orderBy`; `[]` when
   * there is none. Null: not compilable.
   */
  list(typeName: string, alias: string, nodes: readonly FieldNode[], from: string, orderBy: string): string | null {
    const item = this.object(typeName, alias, nodes);
    return item && `(select coalesce(json_agg(${item} order by ${orderBy}), '[]'::json) ${from})`;
  }

  /**
   * Whether every root field `operation` selects is declared (a cheap check before anything is loaded for
   * {@link root}, e.g. the caller's memberships), and at least one is not `__typename`.
   */
  static rootDeclared(
    schema: GraphQLSchema,
    types: SqlReadTypes,
    fragments: Record<string, FragmentDefinitionNode>,
    variables: Record<string, unknown>,
    operation: OperationDefinitionNode,
  ): boolean {
    const type = schema.getQueryType();
    const declared = type && types[type.name];
    if (operation.operation !== "query" || !type || !declared) return false;
    const names = [...collectFields(schema, fragments, variables, type, operation.selectionSet).values()].map(
      (nodes) => nodes[0]!.name.value,
    );
    return names.some((n) => n !== "__typename") && names.every((n) => n === "__typename" || n in declared);
  }

  /**
   * The JSON object of the root fields of `operation` (a query); null when one of them is not compilable, or when
   * it selects only `__typename`.
   */
  root(operation: OperationDefinitionNode): string | null {
    const type = this.schema.getQueryType();
    if (operation.operation !== "query" || !type) return null;
    const declared = this.types[type.name];
    if (!declared) return null;
    const selected = collectFields(this.schema, this.fragments, this.variables, type, operation.selectionSet);
    // Nothing to read (e.g. `{ __typename }`): the executor answers without a statement.
    if ([...selected.values()].every((nodes) => nodes[0]!.name.value === "__typename")) return null;
    return this.fields(type, "", selected, declared);
  }

  /** The statement text (`?` placeholders) and bindings for `expression`, selected as text column `data`. */
  statement(expression: string): { sql: string; bindings: Knex.Value[] } {
    const bindings: Knex.Value[] = [];
    const sql = `select (${expression})::text as "data"`.replace(PLACEHOLDER, (_m, index: string) => {
      bindings.push(this.values[Number(index)] ?? null);
      return "?";
    });
    return { sql, bindings };
  }

  private fields(
    type: GraphQLObjectType,
    alias: string,
    selected: Map<string, readonly FieldNode[]>,
    declared: Record<string, SqlReadFieldSql>,
  ): string | null {
    if (selected.size > MAX_KEYS) return null;
    const parts: string[] = [];
    for (const [key, nodes] of selected) {
      const node = nodes[0]!;
      const name = node.name.value;
      let sql: string | null;
      if (name === "__typename") {
        sql = `'${type.name}'::text`;
      } else {
        const definition = type.getFields()[name];
        const compile = declared[name];
        if (!definition || !compile) return null;
        let args: Record<string, unknown>;
        try {
          args = getArgumentValues(definition, node, this.variables);
        } catch {
          return null;
        }
        sql = compile({ compiler: this, alias, args, nodes, returnType: getNamedType(definition.type).name });
      }
      if (sql === null) return null;
      parts.push(`'${key}', ${sql}`);
    }
    return `json_build_object(${parts.join(", ")})`;
  }
}

/** A column of the row as a JSON scalar (text, integer, boolean; null stays null). */
export const column =
  (name: string): SqlReadFieldSql =>
  ({ alias }) =>
    `${alias}.${name}`;

/** A timestamptz column of the row as the `DateTime` scalar's text (src/db/sql-time.ts). */
export const timestamp =
  (name: string): SqlReadFieldSql =>
  ({ alias }) =>
    isoTimeSql(`${alias}.${name}`);

/** The integer argument `name` of `field` when it lies in 1..max (the range checkPageSize accepts), else null. */
export function pageSizeArg(field: SqlReadField, name: string, max: number): number | null {
  const value = field.args[name];
  return typeof value === "number" && Number.isInteger(value) && value >= 1 && value <= max ? value : null;
}

/** The opaque cursor of src/shared/pagination.ts (`base64url("c:" + id)`, no padding) computed in SQL. */
export function cursorSql(idSql: string): string {
  return `rtrim(translate(encode(convert_to('c:' || ${idSql}, 'UTF8'), 'base64'), E'+/\\n', '-_'), '=')`;
}

/**
 * A forward `*Connection` (edges { cursor node }, pageInfo, totalCount) over the rows of `table` (aliased `p` in
 * `where`) matching `where`, ordered by id, the `first` of them after id `afterId`: the shape `toConnection` of
 * src/shared/pagination.ts builds, nodes compiled as `nodeType`. Null: not compilable.
 */
export function connectionSql(
  field: SqlReadField,
  page: { table: string; where: string; first: number; afterId: string | null; nodeType: string },
): string | null {
  const { compiler } = field;
  const after = page.afterId ? ` and p.id > ${compiler.param(page.afterId)}` : "";
  /** The page's rows (up to `limit`) as a subquery aliased `alias`. */
  const rows = (alias: string, limit: number) =>
    `(select * from ${page.table} p where ${page.where}${after} order by p.id limit ${compiler.param(limit)}) ${alias}`;
  /** The cursor of the page's first or last row. */
  const edgeCursor = (direction: "asc" | "desc") => {
    const a = compiler.alias();
    return `(select ${cursorSql(`${a}.id`)} from ${rows(a, page.first)} order by ${a}.id ${direction} limit 1)`;
  };
  return compiler.objectWith(field.returnType, "", field.nodes, {
    edges: (edges) => {
      const a = compiler.alias();
      const edge = compiler.objectWith(edges.returnType, a, edges.nodes, {
        cursor: () => cursorSql(`${a}.id`),
        node: (node) => compiler.object(page.nodeType, a, node.nodes),
      });
      return edge && `(select coalesce(json_agg(${edge} order by ${a}.id), '[]'::json) from ${rows(a, page.first)})`;
    },
    pageInfo: (info) =>
      compiler.objectWith(info.returnType, "", info.nodes, {
        hasNextPage: () => `((select count(*) from ${rows(compiler.alias(), page.first + 1)}) > ${page.first})`,
        hasPreviousPage: () => "false",
        startCursor: () => edgeCursor("asc"),
        endCursor: () => edgeCursor("desc"),
      }),
    totalCount: () => `(select count(*)::int from ${page.table} p where ${page.where})`,
  });
}
