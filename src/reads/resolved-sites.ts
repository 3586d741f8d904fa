/**
 * Compiled reads with computed fields (never the whole operation on the slow path because one field is
 * special). A query that selects, besides declared fields, scalar fields of table types that are not columns (a
 * decrypted value, a computed URL: the resolvers test/architecture/one-read.unit.test.ts lists) is still answered by its
 * one statement, compiled in sites mode: where such a field's value goes, the statement writes the field's site
 * index and the row (`SITE_OPEN`, index, row, `SITE_CLOSE` of compiler.ts, marked with a secret of this process so
 * that no stored value can pass for one). This file finds each site in the answer's text, calls the field's
 * resolver as the executor would — the schema's own, deadline included, with `{ __row }` as its parent, which
 * src/reads/resolvers.ts turns into the row model — and splices the value, serialized by the field's scalar, in the
 * site's place: the answer is not parsed, only the rows. Anything the executor would report — a resolver
 * throwing, null for a non-null type, a value its scalar refuses — gives null here: the executor then answers the
 * whole operation, with the error at its path.
 */
import {
  defaultFieldResolver,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLOutputType,
  type GraphQLResolveInfo,
  type GraphQLSchema,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  type OperationDefinitionNode,
} from "graphql";
import { type ReadSite, ROW_KEY, SITE_CLOSE, SITE_OPEN, SITE_ROW } from "./compiler.ts";
import type { ReadContext } from "./context.ts";

/** The operation a compiled answer belongs to: its schema, fragments by name, coerced variables. */
export interface SitesOperation {
  schema: GraphQLSchema;
  operation: OperationDefinitionNode;
  fragments: Record<string, FragmentDefinitionNode>;
  variables: Record<string, unknown>;
}

/**
 * `value` completed as the executor completes a leaf of `type`: null kept (an error for a non-null type), lists
 * item by item, scalars and enums through `serialize`. @throws what graphql-js would report as the field's error.
 */
function completeLeaf(type: GraphQLOutputType, value: unknown): unknown {
  if (isNonNullType(type)) {
    const inner = completeLeaf(type.ofType, value);
    if (inner === null) throw new Error("Cannot return null for non-nullable field.");
    return inner;
  }
  if (value === null || value === undefined) return null;
  if (isListType(type)) {
    if (typeof value !== "object" || !(Symbol.iterator in value)) throw new Error("Expected a list.");
    return Array.from(value as Iterable<unknown>, (item) => completeLeaf(type.ofType, item));
  }
  if (!isLeafType(type)) throw new Error(`Not a leaf type: ${String(type)}`);
  const serialized = type.serialize(value);
  if (serialized === null || serialized === undefined) throw new Error("Expected a value of the field's type.");
  return serialized;
}

/** A site's field and the `info` its resolver receives (one per site: the path names the field, not the item). */
interface SiteCall {
  field: GraphQLField<unknown, ReadContext>;
  info: GraphQLResolveInfo;
}

/** The resolver call of each of `sites` in `op`; null when one is not a field of the schema. */
function siteCalls(op: SitesOperation, sites: readonly ReadSite[]): SiteCall[] | null {
  const calls: SiteCall[] = [];
  for (const site of sites) {
    const parentType = op.schema.getType(site.typeName);
    const field = isObjectType(parentType) ? parentType.getFields()[site.fieldName] : undefined;
    if (!isObjectType(parentType) || !field) return null;
    const key = site.nodes[0]!.alias?.value ?? site.fieldName;
    calls.push({
      field,
      info: {
        fieldName: site.fieldName,
        fieldNodes: site.nodes,
        returnType: field.type,
        parentType,
        path: { prev: undefined, key, typename: site.typeName },
        schema: op.schema,
        fragments: op.fragments,
        rootValue: undefined,
        operation: op.operation,
        variableValues: op.variables,
      },
    });
  }
  return calls;
}

/**
 * The whole answer `response` (`{"data":…}` and a newline, as the statement of `sites` wrote it) with each site
 * replaced by its resolver's value for `ctx`'s caller; null when the executor must answer instead (see the file's
 * comment).
 */
export async function resolveSites(
  response: string,
  op: SitesOperation,
  sites: readonly ReadSite[],
  ctx: ReadContext,
): Promise<string | null> {
  const calls = siteCalls(op, sites);
  if (!calls) return null;
  // The answer's text between sites, and each site's resolver call with its row — all found before any runs.
  const pieces: string[] = [];
  const found: Array<{ call: SiteCall; args: Record<string, unknown>; row: Record<string, unknown> }> = [];
  let from = 0;
  try {
    for (let at = response.indexOf(SITE_OPEN); at !== -1; at = response.indexOf(SITE_OPEN, from)) {
      const rowAt = response.indexOf(SITE_ROW, at);
      const end = rowAt === -1 ? -1 : response.indexOf(SITE_CLOSE, rowAt);
      const index = Number(response.slice(at + SITE_OPEN.length, rowAt));
      const call = calls[index];
      if (end === -1 || !call) return null;
      pieces.push(response.slice(from, at));
      const row = JSON.parse(response.slice(rowAt + SITE_ROW.length, end)) as Record<string, unknown>;
      found.push({ call, args: sites[index]!.args, row });
      from = end + SITE_CLOSE.length;
    }
  } catch {
    return null;
  }
  pieces.push(response.slice(from));
  const resolved = found.map(async ({ call, args, row }) =>
    (call.field.resolve ?? defaultFieldResolver)({ [ROW_KEY]: row }, args, ctx, call.info),
  );
  const settled = await Promise.allSettled(resolved);
  const out: string[] = [pieces[0]!];
  try {
    for (let i = 0; i < settled.length; i++) {
      const outcome = settled[i]!;
      if (outcome.status === "rejected") return null;
      out.push(JSON.stringify(completeLeaf(found[i]!.call.field.type, outcome.value)), pieces[i + 1]!);
    }
  } catch {
    return null;
  }
  return out.join("");
}
