/**
 * Apollo side of compiled reads (src/reads/compiler.ts): after parsing, validation and the
 * operation-level checks (cost limit, input checks), a query whose every field the modules declare compilable is
 * answered by one SQL statement building the `data` JSON in PostgreSQL; any other operation, or a statement that
 * fails, runs through graphql-js as before. Over HTTP the JSON text goes to the client as PostgreSQL wrote it
 * ({@link stringifyResult}); in-process calls (REST rows) get the same text ({@link RawJsonData}).
 */
import type { ApolloServerPlugin, GraphQLRequestContextResponseForOperation, GraphQLResponse } from "@apollo/server";
import { HeaderMap } from "@apollo/server";
import { type FormattedExecutionResult, type FragmentDefinitionNode, GraphQLError, getVariableValues } from "graphql";
import type { Knex } from "knex";
import type { Context } from "../modules/context.ts";
import {
  ERROR_KEY,
  RESPONSE_CLOSE,
  RESPONSE_OPEN,
  type SqlComputedColumns,
  SqlReadCompiler,
  type SqlReadSite,
  type SqlReadTypes,
} from "../reads/index.ts";
import { resolveSites } from "../reads/resolved-sites.ts";
import { sqlReadCaller } from "../reads/resolvers.ts";
import { type PreparedMemo, type ReadStatementOptions, runReadStatement } from "../reads/statements.ts";
import { readFor, rememberedIdentity, statementFor } from "./remembered-callers.ts";

/**
 * The `data` of a compiled read, held as the whole answer PostgreSQL wrote (`{"data":…}` and a newline:
 * RESPONSE_OPEN/RESPONSE_CLOSE of sql-reads.ts), which {@link stringifyResult} sends as is — a large answer is
 * neither re-serialized nor copied to be wrapped. REST rows parse its {@link text} or cut their body out of it
 * (rest-runner.ts, rest-bodies.ts).
 */
export class RawJsonData {
  /** The whole answer: `{"data":<text>}` and a newline. */
  readonly response: string;

  /** `response` must be the whole answer as {@link RawJsonData.fromData} writes it. */
  constructor(response: string) {
    this.response = response;
  }

  /** The data's JSON text `text` as a whole answer (copies it: for answers not written by PostgreSQL). */
  static fromData(text: string): RawJsonData {
    return new RawJsonData(`${RESPONSE_OPEN}${text}${RESPONSE_CLOSE}`);
  }

  /** The data's JSON text (a slice of the answer, which V8 does not copy). */
  get text(): string {
    return this.response.slice(RESPONSE_OPEN.length, this.response.length - RESPONSE_CLOSE.length);
  }

  /** For any other serializer: the parsed value. */
  toJSON(): unknown {
    return JSON.parse(this.text);
  }
}

/**
 * Apollo's `stringifyResult`: a compiled read's answer as PostgreSQL wrote it ({@link RawJsonData}), `JSON.stringify`
 * and a newline otherwise (Apollo's default).
 */
export function stringifyResult(result: FormattedExecutionResult): string {
  if (result.data instanceof RawJsonData && !result.errors && !result.extensions) return result.data.response;
  return `${JSON.stringify(result)}\n`;
}

/** The request's variables coerced for its operation, or null when they do not coerce (execution reports it). */
function coercedVariables(rc: GraphQLRequestContextResponseForOperation<Context>): Record<string, unknown> | null {
  const coerced = getVariableValues(rc.schema, rc.operation.variableDefinitions ?? [], rc.request.variables ?? {});
  return coerced.coerced ?? null;
}

/** A compiled read's statement, and whether its compile put error placeholders in it (SqlReadCompiler.fail). */
interface CompiledStatement {
  sql: string;
  bindings: Knex.Value[];
  placeholders: boolean;
  /** The computed fields whose resolvers replace their sites in the answer before it is sent (resolved-sites.ts). */
  sites: SqlReadSite[];
  /** Fragments of the operation's document by name (for the resolvers of sites). */
  fragments: Record<string, FragmentDefinitionNode>;
  /** The request's variables coerced for its operation (what the statement was compiled with). */
  variables: Record<string, unknown>;
  /** True for a statement kept for its remembered caller ({@link compiledStatements}). */
  kept?: boolean;
  /** A kept statement as it runs for its remembered caller (statementFor), built on its first use. */
  run?: { sql: string; bindings: unknown[] } & PreparedMemo;
}

/**
 * Statements compiled for remembered callers (remembered-callers.ts), reused while the caller is the same remembered
 * entry: keyed by that entry, the operation (Apollo keeps one parsed document per query text) and the variables as
 * the request sent them (their coercion is a function of the operation and them: it is not repeated on a hit); the
 * most recently used are kept, at most {@link MAX_COMPILED} of them and {@link MAX_COMPILED_CHARS}
 * characters of keys and statement text (the statement and its confirming wrap, counted twice) in all (about 8 KB a
 * small query), none whose variables are longer than {@link MAX_KEPT_VARIABLES} characters (a client's large
 * variables must not fill the memory). A compile that read the request's clock (states derived from times) is not
 * kept. Saves the compile — a fifth of the Node CPU of a small query — and the confirming wrap and prepared-name
 * lookup of its text on every request after the first.
 */
const compiledStatements = new Map<string, CompiledStatement & { chars: number }>();
const MAX_COMPILED = 1_000;
const MAX_COMPILED_CHARS = 8_000_000;
const MAX_KEPT_VARIABLES = 2_048;
let compiledChars = 0;

/** A number per object (remembered entries, operations), for the keys of {@link compiledStatements}. */
const numbers = new WeakMap<object, number>();
let lastNumber = 0;
function numberOf(o: object): number {
  let n = numbers.get(o);
  if (n === undefined) {
    n = ++lastNumber;
    numbers.set(o, n);
  }
  return n;
}

/**
 * The statement answering `rc`'s query with its variables (coerced) for `ctx`'s caller in one row, compiled or (for
 * a remembered caller) as compiled before; null when it is not compilable, its variables do not coerce or a
 * declaration refused its arguments (the executor answers then).
 */
async function compiledStatement(
  rc: GraphQLRequestContextResponseForOperation<Context>,
  ctx: Context,
  types: SqlReadTypes,
  computedColumns: SqlComputedColumns,
): Promise<CompiledStatement | null> {
  const identity = rememberedIdentity(ctx);
  const json = identity ? JSON.stringify(rc.request.variables ?? {}) : "";
  // The same caller compiles differently on a REST row limited to its active organization (the same document text
  // may come from /graphql, where the pinned document is shared).
  const only = ctx.principal?.activeOrganizationOnly ? "a" : "";
  const key =
    identity && json.length <= MAX_KEPT_VARIABLES && `${numberOf(identity)}${only}:${numberOf(rc.operation)}:${json}`;
  const known = key ? compiledStatements.get(key) : undefined;
  if (key && known) {
    // Most recently used last.
    compiledStatements.delete(key);
    compiledStatements.set(key, known);
    return known;
  }
  const variables = coercedVariables(rc);
  if (!variables) return null;
  const fragments = Object.fromEntries(
    rc.document.definitions.flatMap((d) => (d.kind === "FragmentDefinition" ? [[d.name.value, d]] : [])),
  );
  if (!SqlReadCompiler.rootDeclared(rc.schema, types, fragments, variables, rc.operation)) return null;
  const caller = await sqlReadCaller(ctx);
  let clockRead = false;
  const watched = {
    ...caller,
    get now() {
      clockRead = true;
      return caller.now;
    },
  };
  const compiler = new SqlReadCompiler(rc.schema, types, fragments, variables, watched, {
    sites: true,
    computedColumns,
  });
  let statement: ReturnType<SqlReadCompiler["rootStatement"]>;
  try {
    statement = compiler.rootStatement(rc.operation);
  } catch (error) {
    // A declaration refused its arguments: the executor reports the error at its path.
    if (!(error instanceof GraphQLError)) ctx.log.warn({ err: error }, "compiled read did not compile");
    return null;
  }
  if (!statement) return null;
  const compiled = {
    ...statement,
    placeholders: compiler.errors.length > 0,
    sites: compiler.siteFields,
    fragments,
    variables,
  };
  if (!key || clockRead) return compiled;
  // The confirming wrap doubles the text kept (counted in `chars`).
  const chars = key.length + 2 * compiled.sql.length;
  const kept = { ...compiled, kept: true, chars };
  compiledStatements.set(key, kept);
  compiledChars += chars;
  while (compiledStatements.size > MAX_COMPILED || compiledChars > MAX_COMPILED_CHARS) {
    const [oldest, entry] = compiledStatements.entries().next().value!;
    compiledStatements.delete(oldest);
    compiledChars -= entry.chars;
  }
  return kept;
}

/**
 * The plugin answering compilable queries with one statement; `types`: the modules' declarations, `computedColumns`:
 * what of its row each computed field's resolver reads (sites mode, resolved-sites.ts). The statement
 * runs under the execution time limit (`options.timeoutMs`, SKIFF_EXECUTION_TIMEOUT_MS): past it, it is cancelled
 * and the answer is the resolvers' 400 `EXECUTION_TIME_LIMIT`.
 */
export function compiledReadsPlugin(
  types: SqlReadTypes,
  computedColumns: SqlComputedColumns,
  options: ReadStatementOptions,
): ApolloServerPlugin<Context> {
  return {
    async requestDidStart() {
      return {
        async responseForOperation(rc): Promise<GraphQLResponse | null> {
          const ctx = rc.contextValue;
          if (rc.operation?.operation !== "query" || !ctx.principal) return null;
          const statement = await compiledStatement(rc, ctx, types, computedColumns);
          if (!statement) return null;
          // With a remembered caller, the statement confirms it too (remembered-callers.ts); a kept statement's
          // remembered caller is the one it was kept for, so its confirming text is built once.
          if (statement.kept) statement.run ??= statementFor(ctx, statement.sql, statement.bindings);
          const run: NonNullable<CompiledStatement["run"]> =
            statement.run ?? statementFor(ctx, statement.sql, statement.bindings);
          let response: string;
          try {
            const memo = statement.kept ? run : undefined;
            const result = await runReadStatement(ctx.knex, run.sql, run.bindings as Knex.Value[], options, memo);
            const row = await readFor(ctx, result);
            // The remembered caller changed or is gone: confirmed the ordinary way next, then executed.
            if (!row) return null;
            // A root field that answers an error for a missing row (e.g. NOT_FOUND) is left to the executor.
            if (row.missing) return null;
            response = row.response as string;
            // A declaration's error placeholder (SqlReadCompiler.fail) in the answer: the executor reports it. Only a
            // key or a string value equal to the key matches (quotes inside strings are escaped): at worst, a needless
            // but correct fallback.
            if (statement.placeholders && response.includes(`"${ERROR_KEY}"`)) return null;
            if (statement.sites.length > 0) {
              const { fragments, variables } = statement;
              const op = { schema: rc.schema, operation: rc.operation, fragments, variables };
              const resolved = await resolveSites(response, op, statement.sites, ctx);
              if (resolved === null) return null;
              response = resolved;
            }
          } catch (error) {
            if (error instanceof GraphQLError && error.extensions.code === "EXECUTION_TIME_LIMIT") {
              const headers = new HeaderMap();
              return {
                http: { status: 400, headers },
                body: { kind: "single", singleResult: { errors: [error.toJSON()] } },
              };
            }
            ctx.log.warn({ err: error }, "compiled read failed; executing the operation instead");
            return null;
          }
          // Apollo passes `data` through untouched (typed as an object: the text stands in for it).
          const data = new RawJsonData(response) as unknown as Record<string, unknown>;
          return { http: { headers: new HeaderMap() }, body: { kind: "single", singleResult: { data } } };
        },
      };
    },
  };
}
