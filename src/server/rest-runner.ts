/**
 * Registers the REST route table on Fastify: authenticate for the row's surface, execute its GraphQL
 * operation in-process through Apollo (same validation, resolvers, services and error formatting as
 * /graphql), then let the row shape status and body. Static rows (fixed documents) are served as they are.
 */
import type { FastifyInstance } from "fastify";
import { GraphQLError, Kind, type OperationDefinitionNode, parse, type TypeNode } from "graphql";
import { outcomeOfCode, recordCall } from "../modules/audit/index.ts";
import type { Context, RequestSurface } from "../modules/context.ts";
import { isDatabaseUnavailable, RETRY_AFTER_SECONDS } from "../shared/database-unavailable.ts";
import {
  type AnyRestRoute,
  type CallbackRequest,
  type CallbackRestRoute,
  type CallbackServices,
  type RestError,
  type RestRequest,
  type RestResponse,
  type RestRoute,
  STATUS_OF_CODE,
} from "../shared/rest-route.ts";
import type { SkiffServer } from "./app.ts";
import { authenticate, presentsCredentials, RateLimitedError, refusalFor } from "./authenticate.ts";
import { RawJsonData } from "./compiled-reads.ts";
import { buildContext, withOrigin } from "./context.ts";
import { unavailableError } from "./format-error.ts";
import { restUnicodeError } from "./input-checks.ts";
import { parseJsonBodies, unsupportedCharset } from "./json-bodies.ts";
import { confirmCaller, rememberedContext, unconfirmedCaller } from "./remembered-callers.ts";
import { bodyResponse, checkBodyAt } from "./rest-bodies.ts";

/**
 * Registers every row of `routes`; with `publicOnly`, unpublished rows are not registered (→ 404), and every
 * other route of `server.app` whose path is neither a published row nor listed in `alsoPublished` (Fastify
 * route patterns, e.g. `/graphql`, `/api/auth/*`) answers the standard 404 too (spec: Versioning, rule 6).
 */
export function registerRestRoutes(
  server: SkiffServer,
  routes: readonly AnyRestRoute[],
  publicOnly: boolean,
  alsoPublished: readonly string[] = [],
): void {
  const { app: root, apollo, services } = server;
  // The rows live in one scope whose JSON parser takes an empty body as no body (`request.body` undefined) instead
  // of a 400 "Body cannot be empty": many HTTP clients send `Content-Type: application/json` on every call, bodiless
  // ones included. A row that takes no body then answers as without one; a row that takes one answers its
  // documented 400 from its own validation. A body sent is a JSON object: any other JSON value is refused before the
  // row. Callback rows open their own scope inside it, with raw bodies.
  root.register(async (app) => {
    // JSON only: a `text/plain` body (which Fastify would hand over as a string) answers 415 as any other type.
    app.removeContentTypeParser("text/plain");
    parseJsonBodies(app, { restBodies: true });
    for (const route of routes) {
      if (publicOnly && !route.published) continue;
      if ("serve" in route) {
        registerOne(app, route, async (req) => route.serve(req, publicOnly));
        continue;
      }
      if ("handle" in route) {
        registerCallback(app, route, services);
        continue;
      }
      if (route.bodyAt) checkBodyAt(route, route.bodyAt);
      else if (!route.respond) throw new Error(`REST row ${route.method} ${route.path} has neither respond nor bodyAt`);
      registerOne(app, route, async (req, headers, requestId, clientAddress) => {
        // A credential this process resolved before: confirmed by the row's compiled read itself, or before anything
        // else runs or is answered (remembered-callers.ts).
        const remembers = services.readMode === "compiled";
        // A row that names no organization acts on the caller's alone (RestRoute.organization).
        const activeOnly = route.organization !== "named";
        let contextValue = remembers
          ? rememberedContext(services, headers, requestId, route.surface, activeOnly)
          : null;
        if (!contextValue) {
          let caller: Context["caller"] = null;
          if (route.surface !== "none") {
            try {
              caller = await authenticate(services, headers, route.surface);
              if (caller && activeOnly) caller.activeOrganizationOnly = true;
            } catch (e) {
              // A database outage meets the caller in the row's own error body (503, Retry-After), not Fastify's.
              if (isDatabaseUnavailable(e)) return fail(route, toRestError(unavailableError()));
              // A token over its rate limit is refused before the row runs; the refused call has its entry.
              if (e instanceof RateLimitedError) {
                const refused = buildContext(services, e.caller, requestId);
                return refuseRow(route, req, withOrigin(refused, rowSurface(route), headers, clientAddress), e);
              }
              if (!(e instanceof GraphQLError)) throw e;
              return fail(route, toRestError(e));
            }
            if (!caller) return route.error(toRestError(refusalFor(route.surface)), 401);
          }
          contextValue = buildContext(services, caller, requestId);
        }
        return runRow(apollo, route, req, withOrigin(contextValue, rowSurface(route), headers, clientAddress));
      });
    }
  });
  if (publicOnly) {
    const allowed = new Set([...alsoPublished, ...routes.filter((r) => r.published).map((r) => r.path)]);
    root.addHook("onRequest", async (request, reply) => {
      const pattern = request.routeOptions.url;
      // Unmatched requests (no pattern) already get the 404 handler.
      if (pattern !== undefined && !allowed.has(pattern)) return reply.callNotFound();
    });
  }
}

/**
 * Runs `route` for the caller of `contextValue` (authenticated already, or remembered and confirmed by the read):
 * builds its variables from `req`, executes its operation in-process through Apollo and shapes the answer as the
 * row says (its `bodyAt` or `respond`; errors by its `error`). The one execution of a row, for HTTP and for the MCP
 * tools that answer a row's body (src/server/mcp.ts). `action` names the call's audit entry when it is not the
 * row's own ({@link rowAction}: an MCP tool's entry names the tool).
 */
export async function runRow(
  apollo: SkiffServer["apollo"],
  route: RestRoute,
  req: RestRequest,
  contextValue: Context,
  action?: string,
): Promise<RestResponse> {
  const { mutation } = rowOperation(route);
  if (!readsAudited(contextValue) && !mutation) return executeRow(apollo, route, req, contextValue);
  const seen: { variables?: Record<string, unknown> } = {};
  const response = await executeRow(apollo, route, req, contextValue, seen);
  // Every agent API and MCP call is a sensitive read: one audit entry each. A mutation's own entry is written as it
  // runs (src/modules/audit/audit-mutations.ts); one refused before it runs (its input) is recorded here.
  if (readsAudited(contextValue) || !seen.variables) {
    await recordRowCall(route, contextValue, seen.variables, response.status, action);
  }
  return response;
}

/**
 * Refuses a call of `route` before it runs with `error` (an agent token over its rate limit) and records the call's
 * one audit entry, as {@link runRow} would have: its action, the ids its variables name (when `req` builds them) and
 * the outcome of the error's status. For the refused calls of HTTP rows and of MCP tools alike.
 */
export async function refuseRow(
  route: RestRoute,
  req: RestRequest,
  contextValue: Context,
  error: GraphQLError,
  action?: string,
): Promise<RestResponse> {
  const response = fail(route, toRestError(error));
  let variables: Record<string, unknown> | undefined;
  try {
    variables = route.variables(req);
  } catch (e) {
    if (!(e instanceof GraphQLError)) throw e;
  }
  await recordRowCall(route, contextValue, variables, response.status, action);
  return response;
}

/** True when every call on `contextValue`'s surface is audited as a read (the agent API and MCP). */
function readsAudited(contextValue: Context): boolean {
  const surface = contextValue.origin?.surface;
  return surface === "AGENT" || surface === "MCP";
}

/**
 * A row's audit action on `contextValue`'s surface: `<surface>.<operation>` for the agent API's reads
 * (`agent.AgentDeployments`), else the mutation's name (else the operation's). MCP tool calls pass their own
 * (`mcp.<tool>`, src/server/mcp.ts).
 */
function rowAction(route: RestRoute, contextValue: Context): string {
  const { name, mutation } = rowOperation(route);
  const surface = contextValue.origin?.surface;
  return readsAudited(contextValue) && surface ? `${surface.toLowerCase()}.${name}` : (mutation ?? name);
}

/**
 * Writes the audit entry of one call of `route` that answered `status`: `action` (default {@link rowAction}), the
 * string values of its `ID`-typed `variables` (none when its input was refused) as targets. A remembered caller the
 * call did not confirm ({@link unconfirmedCaller}: its credential no longer verifies) leaves none.
 */
async function recordRowCall(
  route: RestRoute,
  contextValue: Context,
  variables: Record<string, unknown> | undefined,
  status: number,
  action = rowAction(route, contextValue),
): Promise<void> {
  if (unconfirmedCaller(contextValue)) return;
  const { idVariables, entityVariables } = rowOperation(route);
  await recordCall(contextValue.services, contextValue.log, contextValue, {
    action,
    targetIds: [
      ...idVariables.flatMap((v) => {
        const value = variables?.[v];
        return typeof value === "string" ? [value] : [];
      }),
      // The entities a row reads through `_entities` (e.g. a deployment by id): their representations' ids.
      ...entityVariables.flatMap((v) => {
        const value = variables?.[v];
        return Array.isArray(value)
          ? value.flatMap((r) => (typeof (r as { id?: unknown })?.id === "string" ? [(r as { id: string }).id] : []))
          : [];
      }),
    ],
    outcome: outcomeOfStatus(status),
  });
}

/** The audit outcome of a row's answer status (docs/audit-log.md). */
function outcomeOfStatus(status: number): string {
  if (status < 300) return "ok";
  const code = Object.entries(STATUS_OF_CODE).find(([, s]) => s === status)?.[0];
  return outcomeOfCode(code ?? "INTERNAL_SERVER_ERROR");
}

/** What the audit log needs of a row's operation: its name, `ID`-typed variables and mutation field (null: a query). */
interface RowOperation {
  name: string;
  idVariables: string[];
  /** Its variables of type `[_Any!]` (federation representations `{ __typename, id }`). */
  entityVariables: string[];
  mutation: string | null;
}

/** A row's {@link RowOperation}, parsed once per row. */
const operations = new WeakMap<RestRoute, RowOperation>();
function rowOperation(route: RestRoute): RowOperation {
  let known = operations.get(route);
  if (!known) {
    const operation = parse(route.operation).definitions.find(
      (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
    );
    const variables = operation?.variableDefinitions ?? [];
    const named = (type: TypeNode) => (type.kind === Kind.NON_NULL_TYPE ? type.type : type);
    const idVariables = variables.flatMap((v) => {
      const type = named(v.type);
      return type.kind === Kind.NAMED_TYPE && type.name.value === "ID" ? [v.variable.name.value] : [];
    });
    const entityVariables = variables.flatMap((v) => {
      const list = named(v.type);
      const item = list.kind === Kind.LIST_TYPE ? named(list.type) : null;
      return item?.kind === Kind.NAMED_TYPE && item.name.value === "_Any" ? [v.variable.name.value] : [];
    });
    const first = operation?.selectionSet.selections[0];
    const mutation = operation?.operation === "mutation" && first?.kind === Kind.FIELD ? first.name.value : null;
    known = { name: operation?.name?.value ?? "anonymous", idVariables, entityVariables, mutation };
    operations.set(route, known);
  }
  return known;
}

/** The surface of a row's requests: the agent API's, an internal procedure's (`/api/<name>.<verb>`) or REST. */
function rowSurface(route: RestRoute): RequestSurface {
  if (route.surface === "agent") return "AGENT";
  return /\/api\/[A-Za-z]+\.[A-Za-z]+$/.test(route.path) ? "PROCEDURE" : "REST";
}

/** {@link runRow} without its audit entry; `seen` receives the variables the operation ran with. */
async function executeRow(
  apollo: SkiffServer["apollo"],
  route: RestRoute,
  req: RestRequest,
  contextValue: Context,
  seen: { variables?: Record<string, unknown> } = {},
): Promise<RestResponse> {
  let variables: Record<string, unknown>;
  try {
    // A credential the row checks itself comes first: a wrong one is a 401 whatever the request holds.
    route.authenticate?.(req, contextValue.services.config);
    // An id no object can have names nothing: 404 before the row's own checks of its text. Any other unstorable
    // string after them (an agent id holding NUL is an unknown id), before its operation, named as the client wrote
    // it, not by the variable it became.
    const unstorable = restUnicodeError(req);
    if (unstorable?.extensions.code === "NOT_FOUND") throw unstorable;
    variables = route.variables(req);
    if (unstorable) throw unstorable;
  } catch (e) {
    if (!(e instanceof GraphQLError)) throw e;
    // Bad input from a caller that no longer verifies is a 401, as without a remembered caller.
    const refused = await confirmCaller(contextValue).then(
      () => null,
      (error: unknown) => {
        if (error instanceof GraphQLError) return error;
        throw error;
      },
    );
    return fail(route, toRestError(refused ?? e));
  }
  const execute = async (vars: Record<string, unknown>) => {
    const response = await apollo.executeOperation({ query: route.operation, variables: vars }, { contextValue });
    if (response.body.kind !== "single") throw new Error("Incremental delivery is not supported on REST routes");
    return response.body.singleResult;
  };
  seen.variables = variables;
  const { data, errors } = await execute(variables);
  if (errors?.length) return fail(route, errors[0]!);
  if (route.bodyAt) {
    return bodyResponse(
      route,
      route.bodyAt,
      data,
      // Called only for a row that follows pages.
      (cursor) => execute({ ...variables, [route.followPages!.cursorVariable]: cursor }),
      (error) => fail(route, error),
    );
  }
  // A compiled read's JSON text (compiled-reads.ts), parsed for the row to shape.
  const value = data instanceof RawJsonData ? (JSON.parse(data.text) as Record<string, unknown>) : data;
  return route.respond!(value ?? {}, variables, req);
}

function fail(route: RestRoute, error: RestError) {
  const code = String(error.extensions?.code ?? "INTERNAL_SERVER_ERROR");
  return route.error(error, STATUS_OF_CODE[code] ?? 500);
}

function toRestError(e: GraphQLError): RestError {
  return e.toJSON();
}

/**
 * Registers a callback row in its own encapsulated context where every body stays raw (a Buffer, any content
 * type, up to the row's `bodyLimit`); no credentials are asked for: the row checks its own. A `charset` other than
 * UTF-8 is refused with 415 before the row runs ({@link unsupportedCharset}: the rows read their bytes as UTF-8).
 * The path's other methods answer 405 with `Allow`.
 */
function registerCallback(app: FastifyInstance, route: CallbackRestRoute, services: CallbackServices): void {
  const bodyLimit = route.bodyLimit ?? 1024 * 1024;
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser("*", { parseAs: "buffer", bodyLimit }, (request, body, done) => {
      const refused = unsupportedCharset(request.headers["content-type"]);
      return refused ? done(refused, undefined) : done(null, body);
    });
    scope.route({
      method: route.method,
      url: route.path,
      bodyLimit,
      handler: async (request, reply) => {
        const result = await route.handle(
          {
            params: (request.params ?? {}) as Record<string, string>,
            query: (request.query ?? {}) as CallbackRequest["query"],
            rawBody: Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0),
            headers: request.headers,
          },
          services,
        );
        // Every callback leaves an entry: its route's pattern (never its values: a deploy URL's token is a secret),
        // the organization and targets its handler names (docs/audit-log.md).
        await recordCall(
          services,
          services.log,
          { caller: null, requestId: request.id, origin: { surface: "REST", clientAddress: request.ip } },
          {
            action: `${route.method} ${route.path}`,
            targetIds: result.audit?.targetIds ?? [],
            outcome: outcomeOfStatus(result.status),
            organizationId: result.audit?.organizationId ?? null,
          },
        );
        if (result.headers) reply.headers(result.headers);
        return reply.code(result.status).send(result.body);
      },
    });
    const others = (["GET", "POST", "PUT", "DELETE", "PATCH"] as const).filter((m) => m !== route.method);
    scope.route({
      method: [...others],
      url: route.path,
      handler: async (_request, reply) =>
        reply
          .code(405)
          .header("allow", route.method)
          .send({ error: `Method not allowed: use ${route.method}`, code: "METHOD_NOT_ALLOWED" }),
    });
  });
}

function registerOne(
  app: FastifyInstance,
  route: RestRoute | Extract<AnyRestRoute, { serve: unknown }>,
  handle: (
    req: RestRequest,
    headers: Record<string, string | undefined>,
    requestId: string,
    clientAddress: string,
  ) => Promise<RestResponse>,
): void {
  const bodyLimit = "bodyLimit" in route ? route.bodyLimit : undefined;
  const surface = "surface" in route ? route.surface : "none";
  app.route({
    method: route.method,
    url: route.path,
    ...(bodyLimit && {
      bodyLimit,
      // Before the (large) body is read: a request without any credential is refused at once.
      onRequest: async (request, reply) => {
        if (surface === "none" || presentsCredentials(request.headers)) return;
        const refused = (route as RestRoute).error(toRestError(refusalFor(surface)), 401);
        return reply.code(refused.status).send(refused.body);
      },
    }),
    handler: async (request, reply) => {
      const result = await handle(
        {
          params: (request.params ?? {}) as Record<string, string>,
          query: (request.query ?? {}) as RestRequest["query"],
          body: request.body,
          headers: request.headers as Record<string, string | undefined>,
        },
        request.headers as Record<string, string | undefined>,
        request.id,
        request.ip,
      );
      if (result.headers) reply.headers(result.headers);
      if (result.status === 503) reply.header("retry-after", String(RETRY_AFTER_SECONDS));
      return reply.code(result.status).send(result.body);
    },
  });
}
