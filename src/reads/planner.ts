/**
 * The planner of compiled reads: how an operation that reads Skiff's tables is run. The transport's Apollo plugin
 * (src/server/compiled-reads.ts) asks {@link answerQuery} for a query once the operation-level checks have passed,
 * handing in the caller's confirmation ({@link CallerConfirmation}: src/server/remembered-callers.ts); what the
 * planner does not answer, graphql-js executes with the resolvers of resolvers.ts. Every mode reads with the same
 * declarations, so an answer means the same whichever runs it (test/graph/compiled-reads.test.ts).
 *
 * | Mode | When it applies | Statements | Who completes the answer |
 * |---|---|---|---|
 * | One statement | A query whose every selected field is declared | 1 (which also confirms a remembered caller) | PostgreSQL: the `{"data":…}` text is sent as written |
 * | Sites | A query that also selects computed scalar fields of table types (decrypted values, URLs) | 1 | Node splices each computed field's resolver value into the text (resolved-sites.ts) |
 * | Partial | Any other query (a root field without SQL, a computed object field), or a one-statement answer given back (below) | 1 per declared root field | graphql-js, calling only the undeclared fields' resolvers on the rows the statements carried (resolvers.ts) |
 * | By id | Objects of declared types a resolver returns (mutation payloads, federation references) | 1 per field of the operation, batched over list items | graphql-js (resolvers.ts) |
 * | Event | A subscription event's objects | 1 per event for every subscriber with the same statement | graphql-js, per subscriber (resolvers.ts) |
 * | Executor only | An instance started with {@link ReadMode} `"executor"` (comparisons: tests' start option, bench/executor-reads.ts) | as Partial, for every query; callers authenticate on their own | graphql-js |
 *
 * A one-statement or sites answer is given back to the executor (Partial), which reports errors at their paths,
 * when: the variables do not coerce; a declaration refuses its arguments; the answer holds a declaration's error
 * placeholder (ReadCompiler.fail) or a missing root row that answers an error; a computed field's resolver
 * fails; the remembered caller changed; the statement fails. Past the execution time limit the answer is the
 * `EXECUTION_TIME_LIMIT` error (400), as the executor's would be.
 */
import {
  type DocumentNode,
  type FragmentDefinitionNode,
  GraphQLError,
  type GraphQLSchema,
  getVariableValues,
  type OperationDefinitionNode,
} from "graphql";
import type { Knex } from "knex";
import { type ComputedColumns, ERROR_KEY, ReadCompiler, type ReadSite, type ReadTypes } from "./compiler.ts";
import type { ReadContext } from "./context.ts";
import { resolveSites } from "./resolved-sites.ts";
import { compiledReadCaller } from "./resolvers.ts";
import { type PreparedMemo, type ReadStatementOptions, runReadStatement } from "./statements.ts";

/**
 * How an instance runs GraphQL reads: `"compiled"` by the planner's modes; `"executor"`, every query through
 * graphql-js and no remembered callers — a comparison for tests (the server's start option `readMode`) and
 * benchmarks ({@link setProcessReadMode}), never a setting of the product.
 */
export type ReadMode = "compiled" | "executor";

let processMode: ReadMode = "compiled";

/**
 * Makes `mode` the read mode of every instance this process starts without one in its start options. For a
 * benchmark's comparison only: bench/executor-reads.ts, preloaded into the server's process (`--import`), sets
 * `"executor"`; no configuration reaches it.
 */
export function setProcessReadMode(mode: ReadMode): void {
  processMode = mode;
}

/** The read mode of instances started without one: `"compiled"` unless {@link setProcessReadMode} said otherwise. */
export function processReadMode(): ReadMode {
  return processMode;
}

/**
 * The caller's confirmation, handed in by the transport: a caller the instance resolved before from the same
 * credential rides in the read's own statement, which confirms it (src/server/remembered-callers.ts).
 */
export interface CallerConfirmation {
  /**
   * The remembered entry the caller was started from while it is not confirmed (the same object for as long as the
   * credential is remembered as it was resolved: statements compiled for it are kept with it); null when confirmed.
   */
  identity: object | null;
  /** The read `sql` (`?` placeholders, one row) with `bindings`, wrapped to confirm the caller when it is pending. */
  statement(sql: string, bindings: readonly unknown[]): { sql: string; bindings: unknown[] };
  /** The read's own row of a statement from {@link statement}; null when the caller changed or is gone. */
  read(row: Record<string, unknown> | undefined): Promise<Record<string, unknown> | null>;
}

/** A parsed and validated query: its schema, document, operation and the variables as the request sent them. */
export interface PlannedOperation {
  schema: GraphQLSchema;
  document: DocumentNode;
  operation: OperationDefinitionNode;
  variables: Record<string, unknown> | undefined;
}

/** What the modules declare and how statements run: the planner of one instance. */
export interface ReadPlan {
  /** The modules' declarations (`reads`). */
  types: ReadTypes;
  /** What of its row each computed field's resolver reads (sites mode). */
  computedColumns: ComputedColumns;
  /** The execution time limit (SKIFF_EXECUTION_TIMEOUT_MS) and whether repeated statements are prepared. */
  options: ReadStatementOptions;
}

/** A compiled read's statement, and whether its compile put error placeholders in it (ReadCompiler.fail). */
interface CompiledStatement {
  sql: string;
  bindings: Knex.Value[];
  placeholders: boolean;
  /** The computed fields whose resolvers replace their sites in the answer before it is sent (resolved-sites.ts). */
  sites: ReadSite[];
  /** Fragments of the operation's document by name (for the resolvers of sites). */
  fragments: Record<string, FragmentDefinitionNode>;
  /** The request's variables coerced for its operation (what the statement was compiled with). */
  variables: Record<string, unknown>;
  /** True for a statement kept for its remembered caller ({@link compiledStatements}). */
  kept?: boolean;
  /** A kept statement as it runs for its remembered caller (CallerConfirmation.statement), built on its first use. */
  run?: { sql: string; bindings: unknown[] } & PreparedMemo;
}

/**
 * Statements compiled for remembered callers, reused while the caller is the same remembered entry
 * ({@link CallerConfirmation.identity}): keyed by that entry, the operation (Apollo keeps one parsed document per
 * query text) and the variables as the request sent them (their coercion is a function of the operation and them:
 * it is not repeated on a hit); the most recently used are kept, at most {@link MAX_COMPILED} of them and
 * {@link MAX_COMPILED_CHARS} characters of keys and statement text (the statement and its confirming wrap, counted
 * twice) in all (about 8 KB a small query), none whose variables are longer than {@link MAX_KEPT_VARIABLES}
 * characters (a client's large variables must not fill the memory). A compile that read the request's clock
 * (states derived from times) is not kept. Saves the compile — a fifth of the Node CPU of a small query — and the
 * confirming wrap and prepared-name lookup of its text on every request after the first.
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
 * The statement answering `op` with its variables (coerced) for `ctx`'s caller in one row, compiled or (for a
 * remembered caller, `identity`) as compiled before; null when it is not compilable, its variables do not coerce
 * or a declaration refused its arguments (the executor answers then).
 */
async function compiledStatement(
  op: PlannedOperation,
  ctx: ReadContext,
  identity: object | null,
  plan: ReadPlan,
): Promise<CompiledStatement | null> {
  const json = identity ? JSON.stringify(op.variables ?? {}) : "";
  // The same caller compiles differently on a REST row limited to its active organization (the same document text
  // may come from /graphql, where the pinned document is shared).
  const only = ctx.caller?.activeOrganizationOnly ? "a" : "";
  const key =
    identity && json.length <= MAX_KEPT_VARIABLES && `${numberOf(identity)}${only}:${numberOf(op.operation)}:${json}`;
  const known = key ? compiledStatements.get(key) : undefined;
  if (key && known) {
    // Most recently used last.
    compiledStatements.delete(key);
    compiledStatements.set(key, known);
    return known;
  }
  const variables = getVariableValues(op.schema, op.operation.variableDefinitions ?? [], op.variables ?? {}).coerced;
  if (!variables) return null;
  const fragments = Object.fromEntries(
    op.document.definitions.flatMap((d) => (d.kind === "FragmentDefinition" ? [[d.name.value, d]] : [])),
  );
  if (!ReadCompiler.rootDeclared(op.schema, plan.types, fragments, variables, op.operation)) return null;
  const caller = await compiledReadCaller(ctx);
  let clockRead = false;
  const watched = {
    ...caller,
    get now() {
      clockRead = true;
      return caller.now;
    },
  };
  const compiler = new ReadCompiler(op.schema, plan.types, fragments, variables, watched, {
    sites: true,
    computedColumns: plan.computedColumns,
  });
  let statement: ReturnType<ReadCompiler["rootStatement"]>;
  try {
    statement = compiler.rootStatement(op.operation);
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
 * The whole answer (`{"data":…}` and a newline: RESPONSE_OPEN/RESPONSE_CLOSE of compiler.ts) of the query `op` for
 * `ctx`'s caller in the one-statement or sites mode (see the file's table), its caller confirmed by `confirmation`;
 * null when the executor answers instead (not compilable, given back, or the remembered caller changed — then the
 * transport confirms it the ordinary way before executing).
 * @throws the `EXECUTION_TIME_LIMIT` GraphQL error past `plan.options.timeoutMs` (the statement is cancelled).
 */
export async function answerQuery(
  op: PlannedOperation,
  ctx: ReadContext,
  confirmation: CallerConfirmation,
  plan: ReadPlan,
): Promise<string | null> {
  // Mutations and subscriptions run through graphql-js; an anonymous caller reads only public roots there.
  if (op.operation.operation !== "query" || !ctx.caller) return null;
  const statement = await compiledStatement(op, ctx, confirmation.identity, plan);
  if (!statement) return null;
  // A kept statement's remembered caller is the one it was kept for, so its confirming text is built once.
  if (statement.kept) statement.run ??= confirmation.statement(statement.sql, statement.bindings);
  const run: NonNullable<CompiledStatement["run"]> =
    statement.run ?? confirmation.statement(statement.sql, statement.bindings);
  try {
    const memo = statement.kept ? run : undefined;
    const result = await runReadStatement(ctx.knex, run.sql, run.bindings as Knex.Value[], plan.options, memo);
    const row = await confirmation.read(result);
    // The remembered caller changed or is gone: confirmed the ordinary way next, then executed.
    if (!row) return null;
    // A root field that answers an error for a missing row (e.g. NOT_FOUND) is left to the executor.
    if (row.missing) return null;
    const response = row.response as string;
    // A declaration's error placeholder (ReadCompiler.fail) in the answer: the executor reports it. Only a key
    // or a string value equal to the key matches (quotes inside strings are escaped): at worst, a needless but
    // correct fallback.
    if (statement.placeholders && response.includes(`"${ERROR_KEY}"`)) return null;
    if (statement.sites.length === 0) return response;
    const { fragments, variables } = statement;
    return await resolveSites(
      response,
      { schema: op.schema, operation: op.operation, fragments, variables },
      statement.sites,
      ctx,
    );
  } catch (error) {
    if (error instanceof GraphQLError && error.extensions.code === "EXECUTION_TIME_LIMIT") throw error;
    ctx.log.warn({ err: error }, "compiled read failed; executing the operation instead");
    return null;
  }
}
