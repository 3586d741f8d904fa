/**
 * Compiled reads: the one implementation of every read of Skiff's tables through GraphQL. Modules
 * declare, in their manifests, the SQL of each field that is a column or a relation of their types (`reads`,
 * {@link ReadTypes}) and how a row of each type is found by id with the caller's visibility (`rows`,
 * {@link ReadRows}); this compiler turns a selection into SQL building the answer's compact JSON text inside
 * PostgreSQL ({@link JsonSql}: key names and `to_json` values joined with `||` per object, an array per list,
 * correlated subqueries per level, the to-one relations of a list's rows left-joined on its FROM instead
 * ({@link ReadCompiler.joinedRows}); `json_build_object`/`json_agg` cost PostgreSQL about 1.4× the CPU, measured on
 * the bench:peer shapes). Visibility is part of the SQL (src/auth/access/policy.ts).
 *
 * Two ways to run it, one meaning (the planner chooses: src/reads/planner.ts has every mode in one table):
 * - a query whose every selected field is declared is answered by ONE statement, its JSON text sent as is; where
 *   it also selects undeclared scalar fields of table types (computed or decrypted values), the statement carries
 *   the row at each such field's key ("sites" mode, {@link siteSql}) and only those fields' resolvers run, their
 *   values spliced into the text (src/reads/resolved-sites.ts);
 * - otherwise each declared root field runs one statement for its whole subtree ("partial" mode: undeclared fields
 *   are left out and the object carries its row as `__row` for their resolvers), graphql-js completes the answer
 *   and calls only the undeclared fields' resolvers; objects of declared types that a resolver returns (mutation
 *   payloads, subscription events, federation references) are read by id in one statement per field.
 * A declaration may throw a GraphQL error (e.g. `BAD_USER_INPUT` for a page size): in partial mode a nested field's
 * error is reported at that field's path. An error that depends on rows (e.g. `NOT_FOUND` for an organization the
 * caller may not see, where null is a valid answer) is SQL choosing {@link ReadCompiler.fail}'s placeholder.
 */

import { randomBytes } from "node:crypto";
import {
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLObjectType,
  type GraphQLSchema,
  getArgumentValues,
  getNamedType,
  isLeafType,
  isObjectType,
  type OperationDefinitionNode,
} from "graphql";
import { collectFields, collectSubfields } from "graphql/execution/collectFields.js";
import type { Knex } from "knex";
import { SqlConditionWriter } from "./condition-writer.ts";
import type { ReadStanding } from "./context.ts";

/** What one compiled field receives. */
export interface ReadField {
  /** The compiler (parameters, aliases, nested objects and lists). */
  compiler: ReadCompiler;
  /** The SQL alias of the row of the object the field belongs to (root fields: none). */
  alias: string;
  /** The field's arguments, coerced with the request's variables. */
  args: Record<string, unknown>;
  /** Every node selecting the field under this response key (their selection sets merge). */
  nodes: readonly FieldNode[];
  /** The field's GraphQL return type, named (e.g. `Project` for `[Project!]!`). */
  returnType: string;
  /** The field's definition in the schema (its arguments' directives, e.g. `@pageSize`). */
  definition: GraphQLField<unknown, unknown>;
}

/**
 * SQL whose value is JSON text, SQL null standing for JSON null: what the compiler builds for objects and lists.
 * Its `sql` goes into other SQL; interpolating the object itself throws, so that JSON
 * text is never taken for a scalar by mistake (a scalar value would be converted with `to_json` once more).
 */
export class JsonSql {
  readonly sql: string;
  /** True when the value is never SQL null (objects, lists): no `coalesce` needed around it. */
  readonly notNull: boolean;
  /** The JSON text itself when it is known while compiling (e.g. `"Project"` for `__typename`). */
  readonly constant: string | undefined;
  /**
   * For a list of rows ({@link ReadCompiler.aggregate}): the SQL of its items joined with commas, without the
   * brackets (never SQL null: the empty text when there is none). An enclosing object writes the brackets into its
   * own known text (`,"environments":[` … `]}`) instead of wrapping the list first: PostgreSQL's `||` copies the
   * whole list text for each operator, so each level of a tree saves two copies of everything below it (a
   * 50-project tree's statement: median 40.1 → 37.6 ms on a noisy 2-core VM, 2026-11-26).
   */
  readonly listItems: string | undefined;

  constructor(sql: string, options: { notNull?: boolean; constant?: string; listItems?: string } = {}) {
    this.sql = sql;
    this.notNull = options.notNull ?? false;
    this.constant = options.constant;
    this.listItems = options.listItems;
  }

  /** The JSON text `json` (e.g. `JSON.stringify(value)`), known while compiling. */
  static constant(json: string): JsonSql {
    return new JsonSql(`'${json.replaceAll("'", "''")}'::text`, { notNull: true, constant: json });
  }

  /** @throws always: use `.sql` (see the class's comment). */
  toString(): string {
    throw new Error("JsonSql interpolated as SQL text: use its .sql");
  }
}

/**
 * The SQL of one field: a scalar expression (text, number, boolean, a `json`/`jsonb` value; converted with
 * `to_json`, so its type must be known: `'x'::text`, not `'x'`), or {@link JsonSql} built with the compiler, or null
 * when this selection cannot be compiled (only for types without declarations). May throw a GraphQLError for bad
 * arguments (the executor reports it at the field's path).
 */
export type ReadFieldSql = (field: ReadField) => string | JsonSql | null;

/** Compilable fields per GraphQL object type name, declared by the modules owning the types. */
export type ReadTypes = Record<string, Record<string, ReadFieldSql>>;

/**
 * Where the rows of one GraphQL type live and which of them the caller sees: `table` (its primary key `id`) and
 * `visible(compiler, alias)`, a SQL condition on the row aliased `alias`. Used to read objects a resolver returned
 * (by id) and federation references.
 */
export interface ReadRowSource {
  table: string;
  visible: (compiler: ReadCompiler, alias: string) => string;
}

/** Row sources per GraphQL object type name, declared by the modules owning the tables. */
export type ReadRows = Record<string, ReadRowSource>;

/**
 * A root field's declaration that answers an error instead of null when the row is missing or invisible (e.g.
 * `project(id:)` → `NOT_FOUND`): `missing(args)` builds the error.
 */
export type ReadRootSql = ReadFieldSql & { missing?: (args: Record<string, unknown>) => Error };

/** `sql` whose null answer is the error `missing(args)` (see {@link ReadRootSql}). */
export function orMissing(sql: ReadFieldSql, missing: (args: Record<string, unknown>) => Error): ReadRootSql {
  return Object.assign((field: ReadField) => sql(field), { missing });
}

/**
 * What a compiled read's whole answer has around its `data` (ReadCompiler.rootStatement): `{"data":` before, `}`
 * and a newline after — the text Apollo's own serialization ends with (src/server/compiled-reads.ts reads the data
 * back out of it by these lengths).
 */
export const RESPONSE_OPEN = '{"data":';
export const RESPONSE_CLOSE = "}\n";

/** The key under which a partially compiled object carries its row (snake_case columns) for undeclared fields. */
export const ROW_KEY = "__row";
/** The key of the placeholder a partially compiled field holds when its declaration threw (index into errors). */
export const ERROR_KEY = "__readError";
/**
 * This process's mark of a site (sites mode, {@link siteSql}): random, never sent, so that no stored value (a JSON
 * column, a name) can be taken for one.
 */
const SITE_MARK = randomBytes(12).toString("hex");
/** Where a site's text starts: `{"__site<mark>":<site index>,"row":` and the row's JSON. */
export const SITE_OPEN = `{"__site${SITE_MARK}":`;
/** Between a site's index and its row's JSON. */
export const SITE_ROW = ',"row":';
/** Where a site's text ends, after the row's JSON. */
export const SITE_CLOSE = `,"__end${SITE_MARK}":0}`;

/**
 * The columns of its row that each computed field's resolver reads, by type and field (`Application` →
 * `deployWebhookUrl` → `["id", "organization_id", "deploy_token_encrypted"]`): in sites mode the statement writes
 * only these for it (a wide row costs PostgreSQL a `to_json` lookup per column and Node the parse); a field
 * without an entry receives the whole row, as it does from the executor (`__row`).
 */
export type ComputedColumns = Record<string, Record<string, readonly string[]>>;

/** A computed field compiled in sites mode: the field of type `typeName` its resolver answers, with its arguments. */
export interface ReadSite {
  typeName: string;
  fieldName: string;
  /** The field's nodes (one response key) and coerced arguments. */
  nodes: readonly FieldNode[];
  args: Record<string, unknown>;
}

/** Who reads: the organization the request acts on and the caller's standing in its organizations. */
export interface ReadCaller {
  /** The signed-in user (null: anonymous). */
  userId: string | null;
  /** How the request authenticated (null: anonymous). */
  via: "session" | "apiKey" | "agentToken" | null;
  /** The API key authenticating the request (`api_keys.id`; null: another credential). */
  apiKeyId: string | null;
  /** The session authenticating the request (`sessions.id`; null: another credential). */
  sessionId: string | null;
  organizationId: string | null;
  /** The caller's standing in each organization it may act on, by organization id. */
  orgs: ReadonlyMap<string, ReadStanding>;
  /** The request's clock (`services.now()`, which tests may move), for states derived from times. */
  now: Date;
}

/**
 * Compiles one statement; one instance per statement. `partial`: undeclared fields are left out (their objects carry
 * `__row`) and nested declarations' errors become placeholders ({@link ReadCompiler.errors}); `sites`: an
 * undeclared field of a table row whose type is a scalar or enum (or a list of them) holds its row for its
 * resolver ({@link ReadCompiler.siteFields}); otherwise any undeclared field makes the whole compile answer null.
 */
export class ReadCompiler extends SqlConditionWriter {
  /**
   * Errors thrown by nested declarations in partial mode, by the index their placeholder holds (shared by the
   * compilers of one request when given).
   */
  readonly errors: Error[];
  private readonly schema: GraphQLSchema;
  private readonly types: ReadTypes;
  private readonly fragments: Record<string, FragmentDefinitionNode>;
  private readonly variables: Record<string, unknown>;
  private readonly partial: boolean;
  private readonly sites: boolean;
  private readonly computedColumns: ComputedColumns;
  /**
   * The computed fields of the statement (sites mode), by the index its text holds ({@link siteSql}): when there is
   * any, the answer needs their resolvers before it is sent (src/reads/resolved-sites.ts).
   */
  readonly siteFields: ReadSite[] = [];
  /** The left joins of the FROM being written for each alias in it ({@link joinedRows}): one array per FROM. */
  private readonly joinGroups = new Map<string, string[]>();

  /** `fragments` by name and `variables` coerced, of the operation's document. */
  constructor(
    schema: GraphQLSchema,
    types: ReadTypes,
    fragments: Record<string, FragmentDefinitionNode>,
    variables: Record<string, unknown>,
    caller: ReadCaller,
    options: { partial?: boolean; sites?: boolean; computedColumns?: ComputedColumns; errors?: Error[] } = {},
  ) {
    super(caller, "t");
    this.schema = schema;
    this.types = types;
    this.fragments = fragments;
    this.variables = variables;
    this.partial = options.partial ?? false;
    this.sites = options.sites ?? false;
    this.computedColumns = options.computedColumns ?? {};
    this.errors = options.errors ?? [];
  }

  /**
   * A JSON placeholder standing for `error`: the field whose value it is answers `error` (in partial mode at that
   * field's path, root fields included; the one-statement path leaves an answer holding one to the executor). For
   * errors that depend on rows, e.g. `case when <visible> then <value> else <compiler.fail(notFound)> end`.
   */
  fail(error: Error): JsonSql {
    this.errors.push(error);
    return JsonSql.constant(`{"${ERROR_KEY}":${this.errors.length - 1}}`);
  }

  /** `sql`, whose value is JSON text (e.g. a subquery selecting an object this compiler built), as {@link JsonSql}. */
  json(sql: string): JsonSql {
    return new JsonSql(sql);
  }

  /** A JSON array of `items` in that order (each JSON text; SQL null is JSON null). */
  array(items: readonly JsonSql[]): JsonSql {
    const parts: Part[] = [{ text: "[" }];
    items.forEach((item, i) => {
      if (i > 0) parts.push({ text: "," });
      parts.push({ json: item });
    });
    parts.push({ text: "]" });
    return concatSql(parts);
  }

  /**
   * A JSON array of `item` (JSON text, never SQL null) for every row of `from` (SQL text after `select`, with no
   * ORDER BY or LIMIT of its own at its end), ordered by `orderBy`; `[]` when there is none. Written as
   * `array_to_string(array(select … order by …), ',')`, not as an ordered `string_agg`: the array subquery takes
   * its rows in the subquery's order (an index's order needs no sort) where the ordered aggregate is one more plan
   * node set up per execution and, before PostgreSQL 16, always sorts its input again (shape 5 of bench:peer, two
   * short lists: 6–8 µs less PostgreSQL CPU per execution; the 50-project tree 9% less on PostgreSQL 15, 1.5–3% more
   * on 18, where each element is copied twice; measured on a 2-core VM, 2026-11-27).
   */
  aggregate(item: JsonSql, from: string, orderBy: string): JsonSql {
    const items = `array_to_string(array(select ${item.sql} ${from} order by ${orderBy}), ',')`;
    return new JsonSql(`('[' || ${items} || ']')`, { notNull: true, listItems: items });
  }

  /** The JSON object of type `typeName` for the row `alias`, with the sub-selection of `nodes`; null: not compilable. */
  object(typeName: string, alias: string, nodes: readonly FieldNode[]): JsonSql | null {
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
    declared: Record<string, ReadFieldSql>,
  ): JsonSql | null {
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
  list(typeName: string, alias: string, nodes: readonly FieldNode[], from: string, orderBy: string): JsonSql | null {
    const rows = this.joinedRows(alias, from, () => this.object(typeName, alias, nodes));
    return rows.item && this.aggregate(rows.item, rows.from, orderBy);
  }

  /**
   * The object of type `typeName` from the row of `from` (its row aliased `alias`), JSON null when none. Its to-one
   * relations stay correlated subqueries: each runs once per row of `from`, that is once (a join would read the
   * related tables whole: shape 5 of bench:peer, one application with its environment and project, cost PostgreSQL
   * 1.16× the CPU with joins).
   */
  one(typeName: string, alias: string, nodes: readonly FieldNode[], from: string): JsonSql | null {
    const item = this.object(typeName, alias, nodes);
    return item && new JsonSql(`(select ${item.sql} ${from} limit 1)`);
  }

  /**
   * The JSON `item()` builds for the rows of `from` (SQL text after `select`, its rows aliased `alias`), and that
   * FROM with the to-one relations `item` reads ({@link joinedOne}) as left joins on it: one join per relation
   * instead of a correlated subquery run for every row (the subqueries
   * were half the statement of 50 site imports with their project and application; 2-core VM, 2026-11-27).
   * Use it for the FROM of a list whose items' fields read its rows as `alias`; the list's ordering must name
   * `alias` only.
   */
  joinedRows(alias: string, from: string, item: () => JsonSql | null): { item: JsonSql | null; from: string } {
    const joins: string[] = [];
    this.joinGroups.set(alias, joins);
    let value: JsonSql | null;
    try {
      value = item();
    } finally {
      for (const [a, group] of this.joinGroups) if (group === joins) this.joinGroups.delete(a);
    }
    return { item: value, from: joins.length ? `from (select ${alias}.* ${from}) ${alias} ${joins.join(" ")}` : from };
  }

  /**
   * The object of type `typeName` for the row of `table` (primary key `id`) whose id is `keySql` (SQL on the row
   * `alias`), when `visible` (SQL on the related row's alias; "" for none) holds for it; JSON null when there is
   * none. Where this compiler writes the FROM of `alias` ({@link joinedRows}) the row is a left join on it,
   * elsewhere a correlated subquery.
   */
  joinedOne(
    typeName: string,
    alias: string,
    nodes: readonly FieldNode[],
    table: string,
    keySql: string,
    visible: (relatedAlias: string) => string,
  ): JsonSql | null {
    const x = this.alias();
    const condition = visible(x);
    const on = `${x}.id = ${keySql}${condition ? ` and ${condition}` : ""}`;
    const joins = this.joinGroups.get(alias);
    if (!joins) return this.one(typeName, x, nodes, `from ${table} ${x} where ${on}`);
    const at = joins.length;
    joins.push(`left join ${table} ${x} on ${on}`);
    this.joinGroups.set(x, joins);
    const item = this.object(typeName, x, nodes);
    if (!item) {
      joins.splice(at);
      return null;
    }
    return new JsonSql(`(case when ${x}.id is null then null else ${item.sql} end)`);
  }

  /**
   * A JSON array of the objects of type `typeName` with ids `ids`, in that order, compiled with the sub-selection of
   * `nodes` from the rows of `source`; an id whose row is missing or invisible gives null (`dropMissing`: is left
   * out). `trusted`: the ids come from a service that already decided the caller may have these objects (a
   * mutation's result, e.g. the user a sign-up created), so the row's own visibility is not applied (nested fields
   * still apply theirs). Null: not compilable.
   */
  byIds(
    typeName: string,
    source: ReadRowSource,
    ids: readonly string[],
    nodes: readonly FieldNode[],
    options: { trusted?: boolean; dropMissing?: boolean } = {},
  ): JsonSql | null {
    const [u, a] = [this.alias(), this.alias()];
    const item = this.object(typeName, a, nodes);
    if (!item) return null;
    const visible = options.trusted ? "true" : source.visible(this, a);
    // `limit` (the ids' count: no filter) tells a prepared statement's generic plan that the ids are few (a limit it
    // cannot see counts as a tenth of its input), so it looks rows up by primary key however small the table was
    // when it was planned, instead of scanning the table as it grows.
    const rows = `from (select * from unnest(${this.param([...ids])}::text[]) with ordinality ${u}(id, ord)
        limit ${this.param(ids.length)}) ${u}
      ${options.dropMissing ? "join" : "left join"} ${source.table} ${a} on ${a}.id = ${u}.id and ${visible}`;
    const value = options.dropMissing
      ? item
      : new JsonSql(`case when ${a}.id is null then 'null' else ${item.sql} end`, { notNull: true });
    return this.aggregate(value, rows, `${u}.ord`);
  }

  /**
   * The SQL of root field `definition` of the query type for `nodes` (partial mode, one statement per root field),
   * with its coerced `args`, as JSON text. Null: the field has no declaration. Throws what the declaration throws.
   */
  rootField(fieldName: string, args: Record<string, unknown>, nodes: readonly FieldNode[]): JsonSql | null {
    const type = this.schema.getQueryType();
    const compile = type && this.types[type.name]?.[fieldName];
    const definition = type?.getFields()[fieldName];
    if (!compile || !definition) return null;
    const returnType = getNamedType(definition.type).name;
    const sql = compile({ compiler: this, alias: "", args, nodes, returnType, definition });
    return sql === null ? null : jsonValue(sql, returnType);
  }

  /**
   * Whether every root field `operation` selects is declared (a cheap check before anything is loaded for
   * {@link root}, e.g. the caller's memberships), and at least one is not `__typename`.
   */
  static rootDeclared(
    schema: GraphQLSchema,
    types: ReadTypes,
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
   * The statement answering `operation` (a query) in one row: `response`, the whole HTTP answer as text —
   * `{"data":<the answer's JSON>}` and a newline ({@link RESPONSE_OPEN}, {@link RESPONSE_CLOSE}: folded into the
   * statement's first and last literals, so the answer is never copied to be wrapped) — and `missing`, true
   * when a root field whose declaration answers an error for null ({@link ReadRootSql}, e.g. `project(id:)`) is
   * null — the executor must then answer. Such root fields are computed once as columns of a subquery (`offset 0`
   * keeps PostgreSQL from inlining them twice), so the check does not parse the answer again. Null: not compilable.
   */
  rootStatement(operation: OperationDefinitionNode): { sql: string; bindings: Knex.Value[] } | null {
    const parts = this.rootParts(operation);
    if (!parts) return null;
    const declared = this.types[this.schema.getQueryType()!.name]!;
    // A value known while compiling (an error placeholder) is never null.
    const computed = (value: JsonSql) => value.constant === undefined;
    const missing = parts.flatMap(({ name, value }, i) =>
      (declared[name] as ReadRootSql | undefined)?.missing && computed(value) ? [i] : [],
    );
    const response = (fields: readonly FieldPart[]) => objectSql(fields, RESPONSE_OPEN, RESPONSE_CLOSE).sql;
    if (missing.length === 0) return this.text(`select ${response(parts)} as "response", false as "missing"`);
    const object = response(
      parts.map((part, i) =>
        computed(part.value) ? { ...part, value: new JsonSql(`r.c${i}`, { notNull: part.value.notNull }) } : part,
      ),
    );
    const columns = parts.flatMap(({ value }, i) => (computed(value) ? [`${value.sql} as c${i}`] : [])).join(", ");
    const checks = missing.map((i) => `r.c${i} is null`).join(" or ");
    return this.text(`select ${object} as "response", (${checks}) as "missing" from (select ${columns} offset 0) r`);
  }

  /** The root fields of `operation` as object parts; null when one is not compilable. */
  private rootParts(operation: OperationDefinitionNode): FieldPart[] | null {
    const type = this.schema.getQueryType();
    if (operation.operation !== "query" || !type) return null;
    const declared = this.types[type.name];
    if (!declared) return null;
    const selected = collectFields(this.schema, this.fragments, this.variables, type, operation.selectionSet);
    // Nothing to read (e.g. `{ __typename }`): the executor answers without a statement.
    if ([...selected.values()].every((nodes) => nodes[0]!.name.value === "__typename")) return null;
    return this.fieldParts(type, "", selected, declared);
  }

  /** The statement text (`?` placeholders) and bindings for `expression`, selected as text column `data`. */
  statement(expression: JsonSql): { sql: string; bindings: Knex.Value[] } {
    return this.text(`select ${expression.sql} as "data"`);
  }

  private fields(
    type: GraphQLObjectType,
    alias: string,
    selected: Map<string, readonly FieldNode[]>,
    declared: Record<string, ReadFieldSql>,
  ): JsonSql | null {
    const parts = this.fieldParts(type, alias, selected, declared);
    return parts && objectSql(parts);
  }

  /** The selected fields as object parts (plus `__row` when needed); null: not compilable. */
  private fieldParts(
    type: GraphQLObjectType,
    alias: string,
    selected: Map<string, readonly FieldNode[]>,
    declared: Record<string, ReadFieldSql>,
  ): FieldPart[] | null {
    const parts: FieldPart[] = [];
    let needsRow = false;
    for (const [key, nodes] of selected) {
      const node = nodes[0]!;
      const name = node.name.value;
      if (name === "__typename") {
        // Type names are GraphQL names ([_A-Za-z][_0-9A-Za-z]*): nothing to escape in SQL or JSON.
        parts.push({ key, name, value: JsonSql.constant(`"${type.name}"`) });
        continue;
      }
      const definition = type.getFields()[name];
      const compile = declared[name];
      if (!definition) return null;
      if (!compile) {
        // Only a table row (an alias; in sites mode, of its type's own declarations) can carry a row.
        if (!alias) return null;
        if (this.sites && declared === this.types[type.name] && isLeafType(getNamedType(definition.type))) {
          // Sites mode: the row at the field's key, where the resolver's value goes (src/reads/resolved-sites.ts).
          const args = getArgumentValues(definition, node, this.variables);
          this.siteFields.push({ typeName: type.name, fieldName: name, nodes, args });
          const columns = this.computedColumns[type.name]?.[name];
          parts.push({ key, name, value: siteSql(this.siteFields.length - 1, alias, columns) });
          continue;
        }
        // Partial mode: the field's resolver answers it from the row.
        if (!this.partial) return null;
        needsRow = true;
        continue;
      }
      let sql: string | JsonSql | null;
      const returnType = getNamedType(definition.type).name;
      try {
        const args = getArgumentValues(definition, node, this.variables);
        sql = compile({ compiler: this, alias, args, nodes, returnType, definition });
      } catch (error) {
        if (!this.partial || !(error instanceof Error)) throw error;
        sql = this.fail(error);
      }
      if (sql === null) return null;
      parts.push({ key, name, value: jsonValue(sql, returnType) });
    }
    if (needsRow) parts.push({ key: ROW_KEY, name: ROW_KEY, value: new JsonSql(`to_json(${alias})::text`) });
    return parts;
  }
}

/**
 * The text of site `index` for the row `alias`: {@link SITE_OPEN}, the index, {@link SITE_ROW}, the row as JSON (only
 * `columns` when given: {@link ComputedColumns}), {@link SITE_CLOSE} (JSON, but never sent: its resolver's value
 * replaces it).
 */
function siteSql(index: number, alias: string, columns?: readonly string[]): JsonSql {
  const pairs = columns?.map((c) => `'${c}', ${alias}."${c}"`).join(", ");
  const row = columns ? `json_build_object(${pairs})::text` : `to_json(${alias})::text`;
  return new JsonSql(`'${SITE_OPEN}${index}${SITE_ROW}' || ${row} || '${SITE_CLOSE}'`, { notNull: true });
}

/** One field of an object being built: its response `key` (a GraphQL name: nothing to escape), name and value. */
interface FieldPart {
  key: string;
  name: string;
  value: JsonSql;
}

/** A piece of JSON text: `text` known when compiling, or a `json` value. */
type Part = { text: string; json?: never } | { json: JsonSql; text?: never };

/**
 * The JSON text of a field's value of GraphQL type `type` (named): {@link JsonSql} as it is; an `Int` or `Boolean`
 * scalar cast to `int4`/`bool` and written as their text, which is their JSON (`to_json` costs PostgreSQL a type
 * lookup per value: ~10% of a statement of many small objects; a value out of `Int`'s 32 bits fails the statement,
 * which the executor then answers with GraphQL's own error); any other scalar converted with `to_json`.
 */
function jsonValue(sql: string | JsonSql, type: string): JsonSql {
  if (sql instanceof JsonSql) return sql;
  if (type === "Int") return new JsonSql(`(${sql})::int4::text`);
  if (type === "Boolean") return new JsonSql(`(${sql})::bool::text`);
  return new JsonSql(`to_json(${sql})::text`);
}

/**
 * `parts` concatenated into one JSON text (never null; SQL null values written `null`). Known texts are joined
 * while compiling (a list's brackets with them: {@link JsonSql.listItems}); the rest with `||` (`concat` looks each
 * argument's output function up on every call: about twice the CPU for an object of fifteen fields).
 */
function concatSql(parts: readonly Part[]): JsonSql {
  const operands: string[] = [];
  let known = "";
  const flush = () => {
    if (known) operands.push(`'${known.replaceAll("'", "''")}'`);
    known = "";
  };
  for (const part of parts) {
    const json = part.json;
    if (json === undefined) known += part.text;
    else if (json.constant !== undefined) known += json.constant;
    else if (json.listItems !== undefined) {
      // The list's brackets join the known text around it: its items are copied once less per operator.
      known += "[";
      flush();
      operands.push(json.listItems);
      known += "]";
    } else {
      flush();
      operands.push(json.notNull ? json.sql : `coalesce(${json.sql}, 'null')`);
    }
  }
  if (operands.length === 0) return JsonSql.constant(known);
  flush();
  return new JsonSql(`(${operands.join(" || ")})::text`, { notNull: true });
}

/**
 * The JSON object of `parts` in their order (keys as given, compact JSON text), with `before` and `after` around it
 * (e.g. a response's envelope: {@link RESPONSE_OPEN}).
 */
function objectSql(parts: readonly FieldPart[], before = "", after = ""): JsonSql {
  const pieces: Part[] = [{ text: `${before}{` }];
  parts.forEach((part, i) => {
    pieces.push({ text: `${i > 0 ? "," : ""}"${part.key}":` }, { json: part.value });
  });
  pieces.push({ text: `}${after}` });
  return concatSql(pieces);
}
