/**
 * The executor's side of compiled reads (src/reads/compiler.ts): the schema's resolvers for every
 * declared field, so a read has one implementation whichever way an operation runs.
 * - A declared root field of `Query` runs ONE statement for its whole subtree (partial mode) and returns its JSON.
 * - Objects of "compiled types" (declared types and the value types built inside their SQL: connections, plans,
 *   settings…) are JSON keyed by response key: their fields read `source[responseKey]`.
 * - An undeclared field of a declared type keeps its module's resolver, which receives the parent's row (the
 *   `__row` the statement carried, camelCased) instead of a model.
 * - A field outside compiled JSON whose value is of a compiled type (mutation payloads, subscription events,
 *   connections built by resolvers, federation references): objects of a type with a row source are re-read by id
 *   with the field's sub-selection, one statement per field of the operation (batched over list items); other
 *   values are re-keyed by response key.
 * Fields with their own resolvers keep the execution deadline (src/server/query-cost.ts).
 */
import { MapperKind, mapSchema } from "@graphql-tools/utils";
import DataLoader from "dataloader";
import {
  defaultFieldResolver,
  type FieldNode,
  type GraphQLFieldResolver,
  type GraphQLNamedType,
  type GraphQLResolveInfo,
  type GraphQLSchema,
  getNamedType,
  isObjectType,
} from "graphql";
import { collectSubfields } from "graphql/execution/collectFields.js";
import { NotFoundError } from "../shared/errors.ts";
import { operationContextOf } from "../shared/operation-context.ts";
import { callerFingerprint, NOW_PATH, recordingCaller, sharingProbeOf } from "./caller-dependencies.ts";
import {
  ERROR_KEY,
  type JsonSql,
  type ReadCaller,
  ReadCompiler,
  type ReadRootSql,
  type ReadRows,
  type ReadTypes,
  ROW_KEY,
} from "./compiler.ts";
import type { ReadContext, ReadPrincipal } from "./context.ts";
import { type ReadStatementOptions, runReadStatement } from "./statements.ts";

type Resolver = GraphQLFieldResolver<unknown, ReadContext>;

/** Per request: errors of nested declarations (placeholders index into it) and the re-read loaders. */
interface RequestReads {
  errors: Error[];
  /** By the field nodes (one per field of the operation) and type: objects re-read by id. */
  rereads: WeakMap<readonly FieldNode[], Map<string, DataLoader<string, unknown>>>;
}
const requests = new WeakMap<object, RequestReads>();
/** Per subscription event (the payload object every subscriber receives): its shared reads by statement. */
const eventReads = new WeakMap<object, Map<string, Promise<unknown>>>();

/** The reads of `ctx`'s operation (a copy of its context made for one resolver shares them: operation-context.ts). */
function readsOf(ctx: ReadContext): RequestReads {
  const operation = operationContextOf(ctx);
  let reads = requests.get(operation);
  if (!reads) {
    reads = { errors: [], rereads: new WeakMap() };
    requests.set(operation, reads);
  }
  return reads;
}

/**
 * The caller as compiled reads see it (its memberships: one statement per request, shared with the services). On a
 * probing context (caller-dependencies.ts) it records what the declarations read of it.
 */
export function compiledReadCaller(ctx: ReadContext): Promise<ReadCaller> {
  const probe = sharingProbeOf(ctx);
  if (!probe) return readCallerOf(ctx.caller, ctx.scope, ctx.services.now());
  const { context } = probe;
  return readCallerOf(context.caller, context.scope, context.services.now()).then((caller) =>
    recordingCaller(caller, probe.paths),
  );
}

/** Per context: its last fingerprint, the memberships and paths it was taken over (see {@link settledFingerprint}). */
const fingerprints = new WeakMap<
  ReadContext,
  { orgs: ReadCaller["orgs"]; paths: readonly string[]; fingerprint: string }
>();

/** Whether `a` and `b` hold the same paths in the same order. */
function samePaths(a: readonly string[], b: readonly string[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * The fingerprint of `ctx`'s caller over `paths` (caller-dependencies.ts `callerFingerprint`), without waiting:
 * undefined when its memberships are not loaded. For the subscribers of a fan-out
 * (src/server/shared-execution.ts): kept per context while its memberships and the paths stay the same, so that
 * each event costs a subscriber a comparison, not a fingerprint (a fingerprint over the clock is never kept).
 */
export function settledFingerprint(ctx: ReadContext, paths: readonly string[]): string | undefined {
  const orgs = ctx.scope.settledMemberships?.();
  if (!orgs) return undefined;
  const kept = fingerprints.get(ctx);
  if (kept && kept.orgs === orgs && samePaths(kept.paths, paths)) return kept.fingerprint;
  const fingerprint = callerFingerprint(callerWith(ctx.caller, orgs, ctx.services.now()), paths);
  if (!paths.includes(NOW_PATH)) fingerprints.set(ctx, { orgs, paths, fingerprint });
  return fingerprint;
}

/**
 * The caller as SQL visibility sees it: `caller` (null: anonymous) with the memberships of `scope` (loaded once
 * per scope), at the clock `now`. For the compiled reads of a request and the services' by-id reads
 * (src/reads/by-id.ts).
 */
export async function readCallerOf(
  caller: ReadPrincipal | null,
  scope: ReadContext["scope"],
  now: Date,
): Promise<ReadCaller> {
  return callerWith(caller, await scope.memberships(), now);
}

/** The {@link ReadCaller} of principal `p` (null: anonymous) with standings `orgs`, at the clock `now`. */
function callerWith(p: ReadPrincipal | null, orgs: ReadCaller["orgs"], now: Date): ReadCaller {
  return {
    userId: p?.userId ?? null,
    via: p?.via ?? null,
    apiKeyId: p?.apiKeyId ?? null,
    sessionId: p?.sessionId ?? null,
    organizationId: p?.organizationId ?? null,
    orgs,
    now,
  };
}

/** camelCase of a table's column names (a finite set: the keys of rows `to_json` wrote), converted once each. */
const camelKeys = new Map<string, string>();
function camelKey(key: string): string {
  let camel = camelKeys.get(key);
  if (camel === undefined) {
    camel = key.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
    if (camelKeys.size < 10_000) camelKeys.set(key, camel);
  }
  return camel;
}

/** snake_case → camelCase keys of a row as `to_json` wrote it, cached per row object. */
const rowModels = new WeakMap<object, Record<string, unknown>>();
function rowModel(row: Record<string, unknown>): Record<string, unknown> {
  let model = rowModels.get(row);
  if (!model) {
    model = {};
    for (const key in row) model[camelKey(key)] = row[key];
    rowModels.set(row, model);
  }
  return model;
}

/**
 * Runs `expression` of `compiler` as one statement (statements.ts) and returns its JSON value.
 * @throws the `EXECUTION_TIME_LIMIT` error past the time limit.
 */
async function runJson(ctx: ReadContext, compiler: ReadCompiler, expression: JsonSql, options: ReadStatementOptions) {
  const { sql, bindings } = compiler.statement(expression);
  const text = (await runReadStatement(ctx.knex, sql, bindings, options)).data as string | null;
  return text === null ? null : JSON.parse(text);
}

/** `value`, unless it is an error placeholder (ReadCompiler.fail): then that error is thrown. */
function valueOrError(ctx: ReadContext, value: unknown): unknown {
  if (value !== null && typeof value === "object" && ERROR_KEY in value) {
    throw readsOf(ctx).errors[(value as Record<string, number>)[ERROR_KEY]!];
  }
  return value;
}

/** A declared or value-type field: its value in the parent's JSON, or the error its declaration threw. */
const keyReader: Resolver = (source, _args, ctx, info) =>
  valueOrError(ctx, (source as Record<string, unknown>)[info.path.key]);

/** Whether `resolve` reads compiled JSON (no deadline check needed: it does no work). */
export function isKeyReader(resolve: unknown): boolean {
  return resolve === keyReader;
}

/**
 * The per-request loader reading objects of type `typeName` by id with the sub-selection of `info`'s field, one
 * statement per batch (keyed by the operation's field nodes: list items of one field share it). `trusted`: without
 * the row's own visibility (see ReadCompiler.byIds). Batched, never cached: a subscription's context lives across
 * events.
 */
function byIdLoader(
  ctx: ReadContext,
  info: GraphQLResolveInfo,
  reads: { types: ReadTypes; rows: ReadRows; options: ReadStatementOptions },
  typeName: string,
  trusted: boolean,
): DataLoader<string, unknown> {
  const request = readsOf(ctx);
  let byType = request.rereads.get(info.fieldNodes);
  if (!byType) {
    byType = new Map();
    request.rereads.set(info.fieldNodes, byType);
  }
  const key = `${typeName}:${trusted}`;
  let loader = byType.get(key);
  if (!loader) {
    loader = new DataLoader<string, unknown>(
      async (ids) => {
        const compiler = new ReadCompiler(
          info.schema,
          reads.types,
          info.fragments,
          info.variableValues,
          await compiledReadCaller(ctx),
          { partial: true, errors: request.errors },
        );
        const expression = compiler.byIds(typeName, reads.rows[typeName]!, ids, info.fieldNodes, { trusted });
        if (expression === null) throw new Error(`${typeName} cannot be read by id`);
        return (await runJson(ctx, compiler, expression, reads.options)) as unknown[];
      },
      { cache: false },
    );
    byType.set(key, loader);
  }
  return loader;
}

/**
 * The compiled types: declared types (but the root) and, recursively, the object types of their fields (value
 * types built inside the SQL, e.g. `ProjectConnection`, `Plan`).
 */
function compiledTypes(schema: GraphQLSchema, types: ReadTypes): Set<string> {
  const root = schema.getQueryType()?.name;
  const out = new Set<string>();
  const visit = (type: GraphQLNamedType) => {
    if (!isObjectType(type) || out.has(type.name) || type.name === root) return;
    out.add(type.name);
    for (const field of Object.values(type.getFields())) {
      // A table type's undeclared fields are answered by resolvers: what they return is not compiled JSON.
      if (types[type.name] && !types[type.name]![field.name]) continue;
      visit(getNamedType(field.type));
    }
  };
  for (const [name, fields] of Object.entries(types)) {
    if (name === root) {
      for (const f of Object.keys(fields)) {
        const field = schema.getQueryType()?.getFields()[f];
        if (field) visit(getNamedType(field.type));
      }
    } else {
      const type = schema.getType(name);
      if (type) visit(type);
    }
  }
  return out;
}

/**
 * The schema with compiled reads as the implementation of every declared field (see the file's comment).
 * `types`/`rows`: the modules' declarations; `options`: how statements run (time limit, prepared).
 */
export function withCompiledReads(
  schema: GraphQLSchema,
  types: ReadTypes,
  rows: ReadRows,
  options: ReadStatementOptions,
): GraphQLSchema {
  const queryName = schema.getQueryType()?.name;
  const compiled = compiledTypes(schema, types);
  // Value types a declared root field without arguments builds (e.g. `Viewer`): a resolver's value of that type
  // (e.g. `setActiveOrganization`'s) is built by the same declaration, for the caller as it is after the resolver.
  const rootOf = new Map<string, string>();
  for (const [name, field] of Object.entries(schema.getQueryType()?.getFields() ?? {})) {
    if (types[queryName!]?.[name] && field.args.length === 0) rootOf.set(getNamedType(field.type).name, name);
  }

  const compilerFor = async (ctx: ReadContext, info: GraphQLResolveInfo) =>
    new ReadCompiler(info.schema, types, info.fragments, info.variableValues, await compiledReadCaller(ctx), {
      partial: true,
      errors: readsOf(ctx).errors,
    });

  /** The resolver of declared root field `fieldName`: one statement for its subtree. */
  const rootResolver =
    (fieldName: string): Resolver =>
    async (_source, args, ctx, info) => {
      const compiler = await compilerFor(ctx, info);
      const expression = compiler.rootField(fieldName, args, info.fieldNodes);
      if (expression === null) throw new Error(`Query.${fieldName} has no SQL declaration`);
      const value = valueOrError(ctx, await runJson(ctx, compiler, expression, options));
      const missing = (types[queryName!]![fieldName] as ReadRootSql).missing;
      if (value === null && missing) throw missing(args);
      return value;
    };

  /** A resolver's object(s) `value` as compiled JSON keyed by response key (for value types without rows). */
  const keyed = (value: unknown, typeName: string, nodes: readonly FieldNode[], info: GraphQLResolveInfo): unknown => {
    if (value === null || value === undefined || typeof value !== "object") return value;
    if (Array.isArray(value)) return value.map((v) => keyed(v, typeName, nodes, info));
    const type = info.schema.getType(typeName);
    if (!isObjectType(type)) return value;
    const source = value as Record<string, unknown>;
    const out: Record<string, unknown> = { [ROW_KEY]: source };
    const selected = collectSubfields(info.schema, info.fragments, info.variableValues, type, nodes);
    for (const [key, fieldNodes] of selected) {
      const name = fieldNodes[0]!.name.value;
      const field = type.getFields()[name];
      if (!field) continue;
      const inner = getNamedType(field.type).name;
      out[key] = compiled.has(inner) ? keyed(source[name], inner, fieldNodes, info) : source[name];
    }
    return out;
  };

  /** Objects of type `typeName` re-read by id for the field of `info` (batched over the operation's field). */
  const reread = (ctx: ReadContext, info: GraphQLResolveInfo, typeName: string, id: string) =>
    // The resolver's service decided the caller may have these objects (trusted: no row visibility).
    byIdLoader(ctx, info, { types, rows, options }, typeName, true).load(id);

  /**
   * A subscription event's object of type `typeName` with id `id`, read once per event for every subscriber whose
   * statement is the same (same selection, same visibility): the event `source` delivered to them all keys the
   * shared reads. A statement whose compile recorded errors is not shared (their placeholders index its context).
   */
  const readForEvent = async (
    source: object,
    typeName: string,
    id: string,
    ctx: ReadContext,
    info: GraphQLResolveInfo,
  ) => {
    const compiler = await compilerFor(ctx, info);
    const errors = compiler.errors.length;
    const expression = compiler.byIds(typeName, rows[typeName]!, [id], info.fieldNodes, { trusted: true });
    if (expression === null) throw new Error(`${typeName} cannot be read by id`);
    const read = async () => ((await runJson(ctx, compiler, expression, options)) as unknown[])[0];
    if (compiler.errors.length > errors) return read();
    const { sql, bindings } = compiler.statement(expression);
    const key = `${sql}\u0000${JSON.stringify(bindings)}`;
    let reads = eventReads.get(source);
    if (!reads) {
      reads = new Map();
      eventReads.set(source, reads);
    }
    let shared = reads.get(key);
    if (!shared) {
      shared = read();
      reads.set(key, shared);
    }
    return shared;
  };

  /** A value of compiled type `typeName` that a resolver of `source` returned, as compiled JSON. */
  const fromResolver = async (
    value: unknown,
    typeName: string,
    source: unknown,
    ctx: ReadContext,
    info: GraphQLResolveInfo,
  ) => {
    if (value === null || value === undefined) return value;
    const id = (value as { id?: unknown }).id;
    if (info.operation.operation === "subscription" && source && typeof source === "object" && typeof id === "string") {
      if (rows[typeName]) return readForEvent(source, typeName, id, ctx, info);
    }
    const root = rootOf.get(typeName);
    if (root && !rows[typeName]) {
      const compiler = await compilerFor(ctx, info);
      return runJson(ctx, compiler, compiler.rootField(root, {}, info.fieldNodes)!, options);
    }
    if (!rows[typeName]) return keyed(value, typeName, info.fieldNodes, info);
    const one = async (item: unknown) => {
      const id = (item as { id?: unknown } | null)?.id;
      if (typeof id !== "string") return keyed(item, typeName, info.fieldNodes, info);
      const object = await reread(ctx, info, typeName, id);
      // Deleted by a concurrent request between the resolver's commit and this read (with its parent, say): the
      // answer names it gone, as a read of it now would, rather than failing on a missing non-null value.
      if (object === null || object === undefined) throw new NotFoundError(typeName, id);
      return object;
    };
    return Array.isArray(value) ? Promise.all(value.map(one)) : one(value);
  };

  return mapSchema(schema, {
    [MapperKind.OBJECT_FIELD]: (field, fieldName, typeName) => {
      const declared = types[typeName];
      if (typeName === queryName && declared?.[fieldName]) return { ...field, resolve: rootResolver(fieldName) };
      if (declared?.[fieldName]) return { ...field, resolve: keyReader };
      // A value type's fields are all built by the SQL of the field holding it.
      if (compiled.has(typeName) && !declared) return { ...field, resolve: keyReader };
      let resolve = field.resolve;
      if (declared && typeName !== queryName && resolve) {
        const own = resolve;
        // An undeclared field of a table type: its resolver gets the row the statement carried.
        resolve = (source, args, ctx, info) => {
          const row = (source as Record<string, unknown> | null)?.[ROW_KEY];
          return own(row ? rowModel(row as Record<string, unknown>) : source, args, ctx, info);
        };
      }
      const returned = getNamedType(field.type).name;
      if (compiled.has(returned)) {
        const own = resolve ?? defaultFieldResolver;
        resolve = async (source, args, ctx, info) =>
          fromResolver(await own(source, args, ctx, info), returned, source, ctx, info);
      }
      return resolve === field.resolve ? field : { ...field, resolve };
    },
  });
}

/**
 * `__resolveReference` of every declared type with a row source, for the resolver map given to
 * `buildSubgraphSchema`: the references of one `_entities` field are read in one statement per type (batched).
 */
export function compiledReadReferences(types: ReadTypes, rows: ReadRows, options: ReadStatementOptions) {
  type Reference = (ref: { id: string }, ctx: ReadContext, info: GraphQLResolveInfo) => unknown;
  const out: Record<string, { __resolveReference: Reference }> = {};
  for (const typeName of Object.keys(rows)) {
    if (!types[typeName]) continue;
    out[typeName] = {
      // A reference names any id: the row's visibility applies. `_entities` resolves its type from __typename.
      __resolveReference: async (ref, ctx, info) => {
        const object = await byIdLoader(ctx, info, { types, rows, options }, typeName, false).load(ref.id);
        return object === null ? null : { __typename: typeName, ...(object as object) };
      },
    };
  }
  return out;
}
