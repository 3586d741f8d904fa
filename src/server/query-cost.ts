/**
 * Query cost: the most objects an operation can make the server resolve, computed before
 * execution with graphql-query-complexity and a field estimator that multiplies by list sizes:
 * - every field costs 1 plus what it selects;
 * - a list field (or a `…Connection` page) multiplies what it selects by its `first` argument (the schema's
 *   default when omitted; at most its `@pageSize` maximum, src/shared/page-size.ts: a larger one is refused by its
 *   field as bad input, not counted), or by {@link DEFAULT_LIST_SIZE} when the list is unbounded;
 * - `edges` and `nodes` inside a connection are not multiplied again (the page size already was);
 * - Federation's `_entities` multiplies what it selects by the number of `representations` (from the literal or
 *   the variables).
 * Nesting multiplies: `organizations { projects(first:100) { … organization { projects(first:100) } } }` costs
 * 10 × 100 × 100 × …, so it is refused before any resolver runs. HTTP (Apollo plugin) and graphql-ws
 * (`onSubscribe`) share this code.
 */

import type { ApolloServerPlugin } from "@apollo/server";
import {
  type DocumentNode,
  GraphQLError,
  type GraphQLField,
  type GraphQLSchema,
  getNamedType,
  getNullableType,
  isListType,
} from "graphql";
import { type ComplexityEstimatorArgs, getComplexity } from "graphql-query-complexity";
import { timeLimitError } from "../shared/errors.ts";
import { waitedMs } from "../shared/execution-waits.ts";
import { jsonTooDeep } from "../shared/json-text.ts";
import { pageSizeMaxOf } from "../shared/page-size.ts";

/**
 * Assumed length of a list field without a `first` argument (organizations, members, environments, …): 5 keeps
 * the README's organization tree (≈ 42,000) well under the default limit while the amplification query of test/hardening/amplification.test.ts
 * (≈ 609,000) is refused.
 */
export const DEFAULT_LIST_SIZE = 5;

/** True when `field` returns a page type (`…Connection`) whose `first` bounds its `edges`. */
function isConnection(field: GraphQLField<unknown, unknown>): boolean {
  return getNamedType(field.type).name.endsWith("Connection");
}

/** The cost of one field given its children's cost (see the module comment). */
function estimateField({ type, field, args, childComplexity }: ComplexityEstimatorArgs): number {
  const list = isListType(getNullableType(field.type));
  // The connection's `first` already multiplied its page: `edges` and `nodes` are that page, not lists of their own.
  if (type.name.endsWith("Connection") && (field.name === "edges" || field.name === "nodes")) {
    return 1 + childComplexity;
  }
  // Federation's `_entities` resolves one entity per representation: its length is the list's.
  if (field.name === "_entities" && Array.isArray(args.representations)) {
    return 1 + args.representations.length * Math.max(1, childComplexity);
  }
  if (!list && !isConnection(field)) return 1 + childComplexity;
  const first =
    typeof args.first === "number" && args.first > 0
      ? Math.min(args.first, pageSizeMaxOf(field, "first") ?? args.first)
      : DEFAULT_LIST_SIZE;
  return 1 + first * Math.max(1, childComplexity);
}

/**
 * Cost of the operation `operationName` of `document` with `variables` (see the module comment).
 * Returns 0 when the cost cannot be computed (e.g. variables of the wrong type, or nested deeper than
 * src/shared/json-text.ts's MAX_JSON_DEPTH): the request is refused anyway (by execution, by the input checks).
 */
export function queryCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  variables: Record<string, unknown> | undefined,
  operationName: string | undefined | null,
): number {
  // A document's cost depends only on the schema (one per process), its operation and its variables: remembered
  // per parsed document (Apollo's document cache hands the same object back for the same text) and per small
  // variables value, so a repeated operation is not walked again. Variables too deep to serialize without
  // overflowing the stack are refused before execution (src/server/input-checks.ts, the graphql-ws protocol).
  if (jsonTooDeep(variables)) return 0;
  const variablesKey = JSON.stringify(variables ?? {});
  if (variablesKey.length > MAX_CACHED_VARIABLES_LENGTH) return computeCost(schema, document, variables, operationName);
  let byVariables = knownCosts.get(document);
  if (!byVariables) {
    byVariables = new Map();
    knownCosts.set(document, byVariables);
  }
  const key = `${operationName ?? ""}\u0000${variablesKey}`;
  let cost = byVariables.get(key);
  if (cost === undefined) {
    cost = computeCost(schema, document, variables, operationName);
    if (byVariables.size >= MAX_COSTS_PER_DOCUMENT) byVariables.clear();
    byVariables.set(key, cost);
  }
  return cost;
}

/** Costs remembered per parsed document, by operation name and variables (see {@link queryCost}). */
const knownCosts = new WeakMap<DocumentNode, Map<string, number>>();
/** Variables values longer than this (as JSON) are not remembered (their cost is computed each time). */
const MAX_CACHED_VARIABLES_LENGTH = 1024;
/** Distinct (operation, variables) costs remembered per document before its entries are dropped. */
const MAX_COSTS_PER_DOCUMENT = 256;

function computeCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  variables: Record<string, unknown> | undefined,
  operationName: string | undefined | null,
): number {
  try {
    return getComplexity({
      schema,
      query: document,
      variables: variables ?? {},
      operationName: operationName ?? undefined,
      estimators: [estimateField],
    });
  } catch {
    return 0;
  }
}

/** GraphQL error (code `QUERY_COST_EXCEEDED`, HTTP 400) naming the computed cost and the limit. */
export function costError(cost: number, limit: number): GraphQLError {
  return new GraphQLError(`Query cost ${cost} exceeds the limit of ${limit}`, {
    extensions: { code: "QUERY_COST_EXCEEDED", cost, limit, http: { status: 400 } },
  });
}

/** Per request context: when its execution must stop (performance.now() ms) and whether it did. */
const deadlines = new WeakMap<object, { at: number; limitMs: number; timedOut: boolean }>();

/** Starts the execution deadline of the operation run with `context`: `timeoutMs` milliseconds from now. */
export function startDeadline(context: object, timeoutMs: number): void {
  deadlines.set(context, { at: performance.now() + timeoutMs, limitMs: timeoutMs, timedOut: false });
}

/** Ends the deadline {@link startDeadline} set for `context`; true when a resolver met it (the answer is then one error). */
export function endDeadline(context: object): boolean {
  const timedOut = deadlines.get(context)?.timedOut ?? false;
  deadlines.delete(context);
  return timedOut;
}

/**
 * Wraps a field resolver so that it fails with `EXECUTION_TIME_LIMIT` once the deadline {@link queryCostPlugin}
 * set for the request's context has passed (no deadline: runs as is), moved by the time the operation spent waiting
 * for background work it started (src/shared/execution-waits.ts). Applied once to every field with its own
 * resolver when the schema is built (src/server/schema.ts), instead of an Apollo `willResolveField` hook, whose
 * per-field instrumentation cost a third of the CPU of large trees.
 */
export function withDeadline<S, C extends object, A, I>(
  resolve: (source: S, args: A, context: C, info: I) => unknown,
): (source: S, args: A, context: C, info: I) => unknown {
  return (source, args, context, info) => {
    const deadline = deadlines.get(context);
    if (deadline && performance.now() > deadline.at + waitedMs(context)) {
      deadline.timedOut = true;
      throw timeLimitError(deadline.limitMs);
    }
    return resolve(source, args, context, info);
  };
}

/**
 * Apollo plugin refusing operations whose {@link queryCost} exceeds `limit` (HTTP 400, `QUERY_COST_EXCEEDED`),
 * and stopping execution after `timeoutMs` milliseconds: once the deadline passes, every resolver still to run
 * fails ({@link withDeadline}), so the answer is a 400 `EXECUTION_TIME_LIMIT` instead of a request that holds the
 * process.
 */
export function queryCostPlugin<C extends object>(limit: number, timeoutMs: number): ApolloServerPlugin<C> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation(rc) {
          const cost = queryCost(rc.schema, rc.document, rc.request.variables, rc.operationName);
          if (cost > limit) throw costError(cost, limit);
        },
        async executionDidStart(rc) {
          startDeadline(rc.contextValue, timeoutMs);
        },
        async willSendResponse(rc) {
          const timedOut = endDeadline(rc.contextValue);
          if (!timedOut || rc.response.body.kind !== "single") return;
          // One error is enough: drop the data and the thousands of identical field errors.
          rc.response.body.singleResult = { errors: [timeLimitError(timeoutMs).toJSON()] };
          rc.response.http.status = 400;
        },
      };
    },
  };
}
