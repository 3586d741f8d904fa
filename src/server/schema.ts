/**
 * Builds the executable schema from schema/*.graphql: merged SDL, graphql-scalars, module resolvers,
 * as a Federation 2 subgraph (`buildSubgraphSchema`). Every root field except `_service` requires
 * credentials; that check and the execution deadline are applied here once, not in each resolver. `_entities`
 * checks its representations before resolving any (see {@link representationsError}).
 */
import { buildSubgraphSchema } from "@apollo/subgraph";
import { mergeResolvers } from "@graphql-tools/merge";
import { MapperKind, mapSchema } from "@graphql-tools/utils";
import { defaultFieldResolver, type GraphQLSchema, getNamedType, isUnionType, Kind } from "graphql";
import { DateTimeResolver, EmailAddressResolver, JSONObjectResolver, URLResolver } from "graphql-scalars";
import { auditedMutation } from "../modules/audit/index.ts";
import type { Context } from "../modules/context.ts";
import { modulePublicRootFields, moduleReads, moduleResolvers, moduleRows, moduleTypeDefs } from "../modules/index.ts";
import {
  compiledReadReferences,
  isAuthenticated,
  isKeyReader,
  type ReadStatementOptions,
  withCompiledReads,
} from "../reads/index.ts";
import { BadUserInputError, echoed, UnauthenticatedError } from "../shared/errors.ts";
import { isStorableText } from "./input-checks.ts";
import { withDeadline } from "./query-cost.ts";

/**
 * Root fields answerable without credentials: federation gateways fetch the SDL anonymously (`_service`), plus
 * those the modules declare public in their manifests (e.g. the invitation page, docs sites).
 */
export const PUBLIC_ROOT_FIELDS: ReadonlySet<string> = new Set(["_service", ...modulePublicRootFields]);

/** A top-level field of an entity's `@key`, and what its value in a representation must be. */
interface KeyField {
  name: string;
  /** `string`: an `ID` or `String` field; `object`: a field with a selection of its own; `value`: anything not null. */
  kind: "string" | "object" | "value";
}

/** Entity type name → its keys (one per `@key(fields:)`), each the list of its top-level fields. */
type EntityKeys = Map<string, KeyField[][]>;

/**
 * The top-level field names of a `@key(fields:)` selection (`"id"`, `"id sku"`, `"id owner { id }"`), each with
 * whether it has a selection of its own.
 */
function keyFieldNames(fields: string): Array<{ name: string; selected: boolean }> {
  const out: Array<{ name: string; selected: boolean }> = [];
  let depth = 0;
  for (const token of fields.match(/[_A-Za-z][_0-9A-Za-z]*|[{}]/g) ?? []) {
    if (token === "{") {
      const last = out.at(-1);
      if (depth === 0 && last) last.selected = true;
      depth++;
    } else if (token === "}") depth--;
    else if (depth === 0) out.push({ name: token, selected: false });
  }
  return out;
}

/** The entity types of `schema` (the members of its `_Entity` union) with their keys. */
function entityKeysOf(schema: GraphQLSchema): EntityKeys {
  const keys: EntityKeys = new Map();
  const union = schema.getType("_Entity");
  if (!isUnionType(union)) return keys;
  for (const type of union.getTypes()) {
    const fields = type.getFields();
    const directives = [type.astNode, ...type.extensionASTNodes].flatMap((node) => node?.directives ?? []);
    const typeKeys = directives
      .filter((directive) => directive.name.value === "key")
      .map((directive) => {
        const argument = directive.arguments?.find((a) => a.name.value === "fields")?.value;
        return keyFieldNames(argument?.kind === Kind.STRING ? argument.value : "").map(
          ({ name, selected }): KeyField => {
            const named = fields[name] ? getNamedType(fields[name].type).name : undefined;
            return { name, kind: selected ? "object" : named === "ID" || named === "String" ? "string" : "value" };
          },
        );
      });
    keys.set(type.name, typeKeys);
  }
  return keys;
}

/** Whether `value` fits a key field of kind `kind`. */
function fitsKey(value: unknown, kind: KeyField["kind"]): boolean {
  if (kind === "string") return typeof value === "string";
  if (kind === "object") return value !== null && typeof value === "object" && !Array.isArray(value);
  return value !== null && value !== undefined;
}

/**
 * The BAD_USER_INPUT error of the first representation given to `_entities` that cannot be resolved, or null when
 * all can: each must be an object whose `__typename` names an entity type (a member of `_Entity`) and that carries
 * the fields of one of the type's keys (`id`, a string, for every entity Skiff has). The federation library and the
 * by-id reads take representations as they come, so one of an unknown or non-entity type, or without its key, would
 * fail there as an internal error. `extensions.fieldErrors` names the field, e.g. `representations[0].__typename`.
 */
function representationsError(representations: unknown, keys: EntityKeys): BadUserInputError | null {
  if (!Array.isArray(representations)) return null;
  const refused = (field: string, message: string) =>
    new BadUserInputError(`Invalid ${field}: ${message}`, { fieldErrors: { [field]: [message] } });
  const entities = () => [...keys.keys()].sort().join(", ");
  for (const [i, representation] of representations.entries()) {
    const at = `representations[${i}]`;
    if (representation === null || typeof representation !== "object" || Array.isArray(representation)) {
      return refused(at, "a representation is an object with a __typename and the entity's key fields");
    }
    const record = representation as Record<string, unknown>;
    const typename = record.__typename;
    if (typeof typename !== "string") {
      return refused(`${at}.__typename`, `a string naming an entity type is required (one of ${entities()})`);
    }
    const typeKeys = keys.get(typename);
    if (!typeKeys)
      return refused(`${at}.__typename`, `"${echoed(typename)}" is not an entity type (one of ${entities()})`);
    if (typeKeys.length === 0 || typeKeys.some((key) => key.every((f) => fitsKey(record[f.name], f.kind)))) continue;
    // None fits: the first key's first field that does not is named.
    const missing = typeKeys[0]?.find((f) => !fitsKey(record[f.name], f.kind));
    if (!missing) continue;
    const expected = { string: "a string", object: "an object", value: "a value" }[missing.kind];
    return refused(`${at}.${missing.name}`, `a ${typename} representation needs "${missing.name}" (${expected})`);
  }
  return null;
}

/**
 * Whether `representation` (checked by {@link representationsError}) names nothing whatever the rows: a string key
 * field of its type holds text no stored id can hold (NUL, a lone surrogate).
 */
function namesNothing(representation: Record<string, unknown>, keys: EntityKeys): boolean {
  return (keys.get(representation.__typename as string) ?? []).some((key) =>
    key.some((f) => {
      const value = representation[f.name];
      return f.kind === "string" && typeof value === "string" && !isStorableText(value);
    }),
  );
}

/**
 * `_entities`'s resolver `resolve`, refusing its representations with {@link representationsError} before
 * resolving any. A representation that names nothing ({@link namesNothing}) resolves to null, as an unknown id
 * does, without reaching the by-id reads (docs/graphql.md, `_entities`).
 */
function checkingRepresentations<S, C, I>(
  resolve: (source: S, args: Record<string, unknown>, context: C, info: I) => unknown,
  keys: EntityKeys,
): (source: S, args: Record<string, unknown>, context: C, info: I) => unknown {
  return (source, args, context, info) => {
    const refused = representationsError(args.representations, keys);
    if (refused) throw refused;
    const all = args.representations;
    if (!Array.isArray(all)) return resolve(source, args, context, info);
    const named = all.map((r) => !namesNothing(r as Record<string, unknown>, keys));
    if (named.every(Boolean)) return resolve(source, args, context, info);
    const resolved = resolve(source, { ...args, representations: all.filter((_, i) => named[i]) }, context, info);
    // The entities resolved, in order, with null in the place of each representation left out.
    const spread = (list: unknown) => {
      let next = 0;
      return all.map((_, i) => (named[i] ? (list as unknown[])[next++] : null));
    };
    return typeof (resolved as PromiseLike<unknown> | null)?.then === "function"
      ? (resolved as PromiseLike<unknown>).then(spread)
      : spread(resolved);
  };
}

/** Schemas built in this process, by their read options (`timeoutMs:prepare`). */
const builtSchemas = new Map<string, GraphQLSchema>();

/**
 * The executable subgraph schema: the modules' resolvers, with compiled reads (src/reads/resolvers.ts) as the
 * implementation of every declared field; `reads`: how their statements run (time limit, prepared)
 * (SKIFF_EXECUTION_TIMEOUT_MS). Built once per `reads` in a process (about 0.1–0.4 s of CPU): it holds no state of
 * a server's own, so the servers a process starts (tests, benchmarks) share it.
 */
export function buildSchema(reads: ReadStatementOptions = { timeoutMs: 10_000, prepare: false }): GraphQLSchema {
  const key = `${reads.timeoutMs}:${reads.prepare}`;
  let schema = builtSchemas.get(key);
  if (!schema) {
    schema = createSchema(reads);
    builtSchemas.set(key, schema);
  }
  return schema;
}

/** Builds the schema {@link buildSchema} returns. */
function createSchema(reads: ReadStatementOptions): GraphQLSchema {
  const resolvers = mergeResolvers([
    {
      DateTime: DateTimeResolver,
      EmailAddress: EmailAddressResolver,
      JSONObject: JSONObjectResolver,
      URL: URLResolver,
    },
    ...moduleResolvers,
    compiledReadReferences(moduleReads, moduleRows, reads),
  ]);
  const subgraph = buildSubgraphSchema({ typeDefs: moduleTypeDefs, resolvers } as Parameters<
    typeof buildSubgraphSchema
  >[0]);
  const schema = withCompiledReads(subgraph, moduleReads, moduleRows, reads);
  const entityKeys = entityKeysOf(schema);
  const queryName = schema.getQueryType()?.name;
  return mapSchema(schema, {
    // Fields with their own resolver stop at the request's execution deadline (src/server/query-cost.ts); a field
    // read from its parent's compiled JSON does no work to stop.
    [MapperKind.OBJECT_FIELD]: (field) =>
      field.resolve && !isKeyReader(field.resolve) ? { ...field, resolve: withDeadline(field.resolve) } : field,
    [MapperKind.ROOT_FIELD]: (rootField, fieldName, typeName) => {
      // Every mutation leaves one audit entry, in its change's transaction (src/modules/audit/audit-mutations.ts).
      let field =
        typeName === "Mutation"
          ? {
              ...rootField,
              resolve: auditedMutation(
                fieldName,
                Object.entries(rootField.args ?? {}).map(([name, arg]) => ({ name, type: arg.type })),
                rootField.resolve ?? defaultFieldResolver,
              ),
            }
          : rootField;
      // `_entities` refuses a representation it cannot resolve before resolving any (BAD_USER_INPUT).
      if (typeName === queryName && fieldName === "_entities" && field.resolve) {
        field = { ...field, resolve: checkingRepresentations(field.resolve, entityKeys) };
      }
      if (PUBLIC_ROOT_FIELDS.has(fieldName))
        return field.resolve ? { ...field, resolve: withDeadline(field.resolve) } : field;
      const resolve = withDeadline(field.resolve ?? defaultFieldResolver);
      const subscribe = field.subscribe;
      return {
        ...field,
        resolve: (src, args, ctx: Context, info) => {
          // Read as a dependency: a subscription event's result is shared only among authenticated subscribers.
          if (!isAuthenticated(ctx)) throw new UnauthenticatedError();
          return resolve(src, args, ctx, info);
        },
        ...(subscribe && {
          subscribe: (
            src: unknown,
            args: Record<string, unknown>,
            ctx: Context,
            info: Parameters<typeof resolve>[3],
          ) => {
            if (!ctx.caller) throw new UnauthenticatedError();
            return subscribe(src, args, ctx, info);
          },
        }),
      };
    },
  });
}
