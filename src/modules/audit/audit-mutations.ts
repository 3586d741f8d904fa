/**
 * Every mutation leaves one audit entry, on every surface (GraphQL over HTTP and WebSocket, REST rows, procedures, the
 * CLI: all execute the schema's mutations), with no code in any mutation: the transport wraps each `Mutation` field's
 * resolver with {@link auditedMutation}.
 *
 * Same transaction: the resolver runs with a context whose `knex` opens transactions that insert the entry just before
 * they commit (the first such transaction of the call holds it). Services open their transactions on `ctx.knex`
 * (`withTransaction`, src/shared/transaction.ts, or `ctx.knex.transaction`), so the entry commits with the change or
 * rolls back with it. A call made inside a caller's transaction (`ctx.knex` already one) writes its entry there. A
 * change made in one statement on the pool carries the entry in that statement when the service runs it through
 * {@link writeWithAuditEntry}; any other change that opens no transaction (a single statement, or nothing written) gets
 * its entry after it, on the pool. A failed call whose transaction rolled back writes a `refused` (or error code) entry
 * on the pool, outside the rolled-back work. Targets are the ids among the arguments (every `ID`-typed argument or
 * input field) and the ids of what the call created: those its transaction answers (the inserted row, as services
 * return it) or, written after the change, those of the resolver's result ({@link idsOfResult}); a service whose
 * transaction answers something else names its row with {@link noteAuditTarget}.
 */
import { hash } from "node:crypto";
import {
  type DocumentNode,
  type GraphQLFieldResolver,
  type GraphQLInputType,
  type GraphQLSchema,
  getNullableType,
  getOperationAST,
  isInputObjectType,
  isListType,
  isScalarType,
} from "graphql";
import type { Knex } from "knex";
import type { Model } from "objection";
import { pooledQuery } from "../../db/pooled-query.ts";
import { deriveContext } from "../../shared/operation-context.ts";
import { rootFieldNames } from "../../shared/root-fields.ts";
import { transactionRetryingConflicts } from "../../shared/transaction.ts";
import type { WriteRunner } from "../../shared/write-runner.ts";
import type { Context } from "../context.ts";
import {
  type AuditEntry,
  type AuditOutcome,
  auditRow,
  entryOf,
  MAX_TARGETS,
  outcomeOfError,
  writeAuditEntry,
} from "./audit-entry.ts";

/** Where a context copy carries its call's pending entry. */
const PENDING = Symbol("auditPending");

/** The entry of one mutation call until it is written. */
class PendingEntry {
  /** The transaction that holds the entry (null: not written yet). */
  writtenIn: Knex.Transaction | Knex | null = null;
  readonly targets: string[];
  private readonly ctx: Context;
  private readonly action: string;
  private readonly args: Record<string, unknown>;
  /** The organization the call says it changed ({@link noteAuditOrganization}), when the arguments do not tell. */
  organizationId: string | null = null;

  constructor(ctx: Context, action: string, targets: string[], args: Record<string, unknown>) {
    this.ctx = ctx;
    this.action = action;
    this.targets = targets;
    this.args = args;
  }

  /** The entry as it stands, ended with `outcome` (its organization found: {@link organizationOf}). */
  async entry(outcome: AuditOutcome): Promise<AuditEntry> {
    const organizationId = this.organizationId ?? (await organizationOf(this.ctx, this.args));
    return entryOf(this.ctx, this.action, this.targets, outcome, organizationId);
  }

  /** Writes the entry with `knex` unless it is written already. */
  async write(knex: Knex, outcome: AuditOutcome): Promise<void> {
    if (this.writtenIn) return;
    this.writtenIn = knex;
    const startedAt = performance.now();
    try {
      await writeAuditEntry(knex, await this.entry(outcome), "mutation", startedAt);
    } catch (error) {
      this.writtenIn = null;
      throw error;
    }
  }
}

/** `pool` whose callback transactions write `pending`'s entry before they commit; everything else is `pool`'s. */
function auditingKnex(pool: Knex, pending: PendingEntry): Knex {
  const transaction = (handler: unknown, config?: Knex.TransactionConfig) => {
    if (typeof handler !== "function") return pool.transaction(handler as Knex.TransactionConfig);
    const run = handler as (trx: Knex.Transaction) => Promise<unknown>;
    let trxOf: Knex.Transaction | null = null;
    // The targets named before the transaction: what a try notes ({@link noteAuditTarget}) goes with its rollback.
    let before: number | null = null;
    return transactionRetryingConflicts(
      pool,
      async (trx) => {
        // A new try after a conflict: the entry the rolled-back try wrote went with it.
        if (trxOf && pending.writtenIn === trxOf) pending.writtenIn = null;
        if (before === null) before = pending.targets.length;
        else if (!pending.writtenIn) pending.targets.length = before;
        trxOf = trx;
        const result = await run(trx);
        // What the transaction wrote and answers (e.g. the created row) is named too, before its entry is written.
        pending.targets.push(...idsOfResult(result));
        await pending.write(trx, "ok");
        return result;
      },
      config,
    ).catch((error: unknown) => {
      // Rolled back: the entry went with it, and what it created.
      if (trxOf && pending.writtenIn === trxOf) pending.writtenIn = null;
      if (before !== null && !pending.writtenIn) pending.targets.length = before;
      throw error;
    });
  };
  return new Proxy(pool, {
    get: (target, property) => (property === "transaction" ? transaction : Reflect.get(target, property, target)),
  });
}

/** Objects at most this deep in a result are read for ids ({@link idsOfResult}). */
const RESULT_DEPTH = 2;

/**
 * The ids a result holds: the string `id` of the object (or of each object of the list), and of the objects its
 * properties hold, down to {@link RESULT_DEPTH} levels (a payload `{ apiKey: { id } }`, rows `[{ id }]`). This is how
 * an entry names what its call created: a service's transaction answers the row it inserted, a resolver the
 * created object (docs/audit-log.md).
 */
function idsOfResult(value: unknown, depth = 0, out: string[] = []): string[] {
  if (value === null || typeof value !== "object" || depth > RESULT_DEPTH) return out;
  if (Array.isArray(value)) {
    for (const item of value.slice(0, MAX_TARGETS)) idsOfResult(item, depth, out);
    return out;
  }
  if (!isRecord(value)) return out;
  const record = value as Record<string, unknown>;
  if (typeof record.id === "string") out.push(record.id);
  for (const [key, item] of Object.entries(record)) {
    if (key !== "id" && item !== null && typeof item === "object") idsOfResult(item, depth + 1, out);
  }
  return out;
}

/** True for a record: a plain object, a row or a model instance (not a Date, a buffer, a Map or Set, a promise). */
function isRecord(value: object): boolean {
  return !(
    value instanceof Date ||
    ArrayBuffer.isView(value) ||
    value instanceof ArrayBuffer ||
    value instanceof Map ||
    value instanceof Set ||
    value instanceof Promise
  );
}

/** The ids among `value` of input type `type` (ID scalars, lists and input objects' fields, recursively). */
function idsIn(type: GraphQLInputType, value: unknown, out: string[]): void {
  if (value === null || value === undefined) return;
  const nullable = getNullableType(type);
  if (isListType(nullable)) {
    if (Array.isArray(value)) for (const item of value) idsIn(nullable.ofType, item, out);
    return;
  }
  if (isScalarType(nullable)) {
    if (nullable.name === "ID" && (typeof value === "string" || typeof value === "number")) out.push(String(value));
    return;
  }
  if (isInputObjectType(nullable) && typeof value === "object") {
    const fields = nullable.getFields();
    for (const [name, field] of Object.entries(fields))
      idsIn(field.type, (value as Record<string, unknown>)[name], out);
  }
}

/** A field argument's name and input type. */
export interface ArgumentDefinition {
  name: string;
  type: GraphQLInputType;
}

/** The ids a call names: every `ID`-typed argument or input field's value, in argument order. */
export function targetIdsOf(argDefs: readonly ArgumentDefinition[], args: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const arg of argDefs) idsIn(arg.type, args[arg.name], out);
  return out;
}

/**
 * The organization whose log holds a call's entry (read when the entry is written): the one the arguments name
 * (`organizationId`, or `input.organizationId`) when the caller belongs to it, else the one whose access the call
 * looked up and found (the target's: a session acts on every organization of its user), else the one the request
 * acts on (a refusal on another organization's resource stays in the caller's own log).
 */
async function organizationOf(ctx: Context, args: Record<string, unknown>): Promise<string | null> {
  const input = args.input as Record<string, unknown> | undefined;
  const named = args.organizationId ?? input?.organizationId;
  const actedOn = ctx.scope.actedOn();
  if (typeof named === "string" && ctx.caller && (await ctx.scope.forOrg(named).catch(() => null))) return named;
  return actedOn ?? ctx.caller?.organizationId ?? null;
}

/**
 * Wraps mutation `fieldName`'s resolver (arguments `argDefs`) so that each call leaves one audit entry (see the
 * file's comment). The entry's failure to be written fails the call (an unrecorded change is not made).
 */
export function auditedMutation<TSource>(
  fieldName: string,
  argDefs: readonly ArgumentDefinition[],
  resolve: GraphQLFieldResolver<TSource, Context>,
): GraphQLFieldResolver<TSource, Context> {
  return async (source, args, ctx, info) => {
    ctx.scope.startAction();
    const pending = new PendingEntry(ctx, fieldName, targetIdsOf(argDefs, args), args);
    const inCallersTransaction = ctx.knex.isTransaction;
    const audited = inCallersTransaction
      ? ctx
      : Object.assign(Object.create(Object.getPrototypeOf(ctx)) as Context, ctx, {
          knex: auditingKnex(ctx.knex, pending),
        });
    Object.assign(audited, { [PENDING]: pending });
    // The copy belongs to the operation: its waits leave the operation's execution time, and the compiled reads of
    // the mutation's answer (made with the copy) and of its nested fields (with the operation's context) are one.
    if (audited !== ctx) deriveContext(audited, ctx);
    let result: unknown;
    try {
      result = await resolve(source, args, audited, info);
    } catch (error) {
      // The change (if any) rolled back; the refusal or failure is recorded on its own.
      if (!pending.writtenIn) {
        await pending.write(ctx.services.knex, outcomeOfError(error)).catch((e: unknown) => {
          ctx.log.error({ err: e, action: fieldName }, "could not write an audit entry");
        });
      }
      throw error;
    } finally {
      // The caller's own context carries no call's entry past the call.
      if (audited === ctx) delete (audited as unknown as Record<symbol, unknown>)[PENDING];
    }
    // Written after the change (no transaction of the call held it): the result names what was created.
    if (!pending.writtenIn) pending.targets.push(...idsOfResult(result));
    await pending.write(ctx.knex, "ok");
    return result;
  };
}

/**
 * Makes `organizationId` the organization whose log holds the entry of the mutation `ctx` runs in: a call that
 * changes an organization its caller was not acting on yet (joining one, creating one). Call it before the
 * transaction commits; outside a mutation it does nothing.
 */
export function noteAuditOrganization(ctx: object, organizationId: string): void {
  const pending = (ctx as Record<symbol, PendingEntry | undefined>)[PENDING];
  if (pending && !pending.writtenIn) pending.organizationId = organizationId;
}

/** SQLSTATE of "cached plan must not change result type" (feature_not_supported). */
const CACHED_PLAN_RESULT_CHANGED = "0A000";

/** How many times each statement of {@link writeWithAuditEntry} (by its text's hash) was prepared anew. */
const preparedGenerations = new Map<string, number>();

/** What {@link writeWithAuditEntry} runs: a knex write builder, or an Objection one (its knex query is run). */
type WriteStatement = Knex.QueryBuilder | { toKnexQuery(): Knex.QueryBuilder };

/**
 * Runs `statement` — one data-modifying statement that returns its rows (a knex or Objection insert, update or
 * delete builder with `returning`) — on the pool with the ok entry of the mutation `ctx` runs in, inserted by the
 * same statement (a data-modifying common table expression) when the change returns a row: change and entry commit
 * together, in one round trip and with no transaction. A change that returns no row writes no entry (the call's outcome is written
 * as usual). When `ctx` runs in a transaction, in no mutation, or its entry is written already, `change` runs as
 * it is. The entry names the targets noted before it runs ({@link noteAuditTarget}: the ids the call names are
 * noted already) and, with `namesChangedRows` (when the call does not know which rows it changes), the `id` of
 * each row the change returns — a subquery that costs the statement about a fifth more (pgbench, 2 cores).
 * Entries written so are not timed apart (`skiff_audit_write_seconds`): their cost is inside the change's.
 * @returns the change's rows, as knex answers them (camelCase).
 */
export async function writeWithAuditEntry<T>(
  ctx: { knex: Knex },
  statement: WriteStatement,
  options: { namesChangedRows?: boolean } = {},
): Promise<T[]> {
  const change = "toKnexQuery" in statement ? statement.toKnexQuery() : statement;
  const pending = (ctx as Record<symbol, PendingEntry | undefined>)[PENDING];
  if (!pending || pending.writtenIn || ctx.knex.isTransaction) return (await change) as T[];
  const knex = ctx.knex;
  pending.writtenIn = knex;
  try {
    const row = auditRow(await pending.entry("ok"));
    const columns = Object.keys(row);
    const known = row.target_ids;
    // With the changed rows: their ids that are not named yet, after the others (at most MAX_TARGETS, as `entryOf`).
    const values = columns.flatMap((c) => (c === "target_ids" && options.namesChangedRows ? [known, known] : [row[c]]));
    const targets = options.namesChangedRows
      ? `(?::text[] || array(select c.id::text from change c where c.id::text <> all(?::text[])))[1:${MAX_TARGETS}]`
      : "?";
    const entry = knex.raw(
      `insert into audit_events (${columns.join(", ")})
      select ${columns.map((c) => (c === "target_ids" ? targets : "?")).join(", ")}
      where exists (select 1 from change)`,
      values as Knex.Value[],
    );
    const combined = knex.with("change", change).with("entry", entry).select("*").from("change");
    // Compiled once, and run by pg itself on a connection of the pool (src/db/pooled-query.ts): Knex's runner would
    // compile it again. A named prepared statement (its name from its text; the pool drops the name behind a
    // transaction-mode pooler: src/db/prepared-statements.ts): parsing and planning the two inserts anew was most of
    // the entry's cost (pgbench, 2 cores, a webhook create's insert: 6,700 statements/s alone, 4,300 with the entry,
    // unprepared; 9,300 and 7,900 prepared).
    const compiled = combined.toSQL();
    const native = compiled.toNative();
    const statement = { text: native.sql, values: [...native.bindings] };
    const key = hash("sha256", native.sql, "hex").slice(0, 32);
    const run = () =>
      pooledQuery(knex, statement, `audit_${key}_${preparedGenerations.get(key) ?? 0}`, null, {
        sql: compiled.sql,
        bindings: compiled.bindings,
      });
    const returned = await run().catch((error: unknown) => {
      // A column added to the changed table since a connection prepared it (a rolling upgrade's migration):
      // PostgreSQL refuses the prepared `returning *` before running it. It is prepared anew under a new name.
      if ((error as { code?: string }).code !== CACHED_PLAN_RESULT_CHANGED) throw error;
      preparedGenerations.set(key, (preparedGenerations.get(key) ?? 0) + 1);
      return run();
    });
    // As Knex answers rows: its response mapping (snake_case columns to camelCase keys).
    const rows = (knex.client.config.postProcessResponse?.(returned, undefined) ?? returned) as T[];
    if (rows.length === 0) pending.writtenIn = null;
    return rows;
  } catch (error) {
    pending.writtenIn = null;
    throw error;
  }
}

/**
 * {@link writeWithAuditEntry}, answering the rows as instances of `model` (an Objection model class).
 * @returns one instance per row the statement returned.
 */
export async function writeModelsWithAuditEntry<M extends Model>(
  ctx: { knex: Knex },
  model: { new (): M; fromDatabaseJson(json: object): Model },
  statement: WriteStatement,
): Promise<M[]> {
  const rows = await writeWithAuditEntry<Record<string, unknown>>(ctx, statement);
  return rows.map((row) => model.fromDatabaseJson(row) as M);
}

/**
 * The {@link WriteRunner} that runs another module's write for the mutation `ctx` runs in with its audit entry
 * ({@link writeWithAuditEntry}, with `options`).
 */
export function auditedWriteRunner(ctx: { knex: Knex }, options: { namesChangedRows?: boolean } = {}): WriteRunner {
  return (statement) => writeWithAuditEntry(ctx, statement, options);
}

/**
 * Adds `id` (e.g. of a row the call creates) to the targets of the audit entry of the mutation `ctx` runs in; call
 * it before the transaction commits. Outside a mutation it does nothing.
 */
export function noteAuditTarget(ctx: object, id: string): void {
  const pending = (ctx as Record<symbol, PendingEntry | undefined>)[PENDING];
  if (pending && !pending.writtenIn) pending.targets.push(id);
}

/**
 * The root `Mutation` fields operation `operationName` of `document` names, in order: each field selected at its
 * root once (however many aliases select it), fragments on the root included ({@link rootFieldNames}); fields the
 * schema's `Mutation` type does not have are left out. None when the document holds no such single operation or it is not a mutation.
 */
function rootMutationFields(schema: GraphQLSchema, document: DocumentNode, operationName?: string | null): string[] {
  const operation = getOperationAST(document, operationName);
  const fields = schema.getMutationType()?.getFields();
  if (operation?.operation !== "mutation" || !fields) return [];
  // Each field once, however many aliases name it: a refused document cannot multiply its entries.
  return rootFieldNames(document, operation).filter((name) => Object.hasOwn(fields, name));
}

/**
 * Records operation `operationName` of `document`, refused before any of its fields ran (the document failed
 * validation, or its variables did not coerce or pass the input checks), when it is a mutation: one `refused` entry
 * per root `Mutation` field it names ({@link rootMutationFields}), by `ctx`'s caller, with no targets (its input was
 * refused), in the organization the request acts on, each written on the pool — as a call refused by its resolver
 * leaves (docs/audit-log.md, "Refused before it runs"). Logs (never throws) when an entry cannot be written.
 */
export async function recordRefusedMutation(
  ctx: Context,
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName?: string | null,
): Promise<void> {
  for (const field of rootMutationFields(schema, document, operationName)) {
    await new PendingEntry(ctx, field, [], {}).write(ctx.services.knex, "refused").catch((error: unknown) => {
      ctx.log.error({ err: error, action: field }, "could not write an audit entry");
    });
  }
}
