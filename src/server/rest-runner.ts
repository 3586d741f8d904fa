/**
 * Registers the REST route table on Fastify: authenticate for the row's surface, execute its GraphQL
 * operation in-process through Apollo (same validation, resolvers, services and error formatting as
 * /graphql), then let the row shape status and body. Static rows (fixed documents) are served as they are.
 */
import type { FastifyInstance } from "fastify";
import { GraphQLError } from "graphql";
import type { Context } from "../modules/context.ts";
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
import { authenticate, refusalFor } from "./authenticate.ts";
import { RawJsonData } from "./compiled-reads.ts";
import { buildContext } from "./context.ts";
import { unavailableError } from "./format-error.ts";
import { confirmCaller, rememberedContext } from "./remembered-callers.ts";
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
  // The rows live in one scope whose JSON parser takes an empty body as no body (see emptyJsonAsNone); callback rows
  // open their own scope inside it, with raw bodies.
  root.register(async (app) => {
    emptyJsonAsNone(app);
    for (const route of routes) {
      if (publicOnly && !route.published) continue;
      if ("serve" in route) {
        registerOne(app, route, async (req) => route.serve(req));
        continue;
      }
      if ("handle" in route) {
        registerCallback(app, route, services);
        continue;
      }
      if (route.bodyAt) checkBodyAt(route, route.bodyAt);
      else if (!route.respond) throw new Error(`REST row ${route.method} ${route.path} has neither respond nor bodyAt`);
      registerOne(app, route, async (req, headers, requestId) => {
        // A credential this process resolved before: confirmed by the row's compiled read itself, or before anything
        // else runs or is answered (remembered-callers.ts).
        const remembers = services.config.SKIFF_COMPILED_READS;
        // A row that names no organization acts on the caller's alone (RestRoute.organization).
        const activeOnly = route.organization !== "named";
        let contextValue = remembers
          ? rememberedContext(services, headers, requestId, route.surface, activeOnly)
          : null;
        if (!contextValue) {
          let principal: Context["principal"] = null;
          if (route.surface !== "none") {
            try {
              principal = await authenticate(services, headers, route.surface);
              if (principal && activeOnly) principal.activeOrganizationOnly = true;
            } catch (e) {
              // A database outage meets the caller in the row's own error body (503, Retry-After), not Fastify's.
              if (isDatabaseUnavailable(e)) return fail(route, toRestError(unavailableError()));
              if (!(e instanceof GraphQLError)) throw e;
              return fail(route, toRestError(e));
            }
            if (!principal) return route.error(toRestError(refusalFor(route.surface)), 401);
          }
          contextValue = buildContext(services, principal, requestId);
        }
        return runRow(apollo, route, req, contextValue);
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
 * Replaces the JSON parser of `scope` by Fastify's own (same prototype-poisoning rules) except that an empty body
 * is no body (`request.body` undefined) instead of a 400 "Body cannot be empty": many HTTP clients send
 * `Content-Type: application/json` on every call, bodiless ones included. A row that takes no
 * body then answers as without one; a row that takes one answers its documented 400 from its own validation.
 */
function emptyJsonAsNone(scope: FastifyInstance): void {
  const parseJson = scope.getDefaultJsonParser("error", "error");
  scope.removeContentTypeParser("application/json");
  scope.addContentTypeParser("application/json", { parseAs: "string" }, (request, body, done) => {
    const text = String(body);
    if (text.trim() === "") return done(null, undefined);
    return parseJson(request, text, done);
  });
}

/**
 * Runs `route` for the caller of `contextValue` (authenticated already, or remembered and confirmed by the read):
 * builds its variables from `req`, executes its operation in-process through Apollo and shapes the answer as the
 * row says (its `bodyAt` or `respond`; errors by its `error`). The one execution of a row, for HTTP and for the MCP
 * tools that answer a row's body (src/server/mcp.ts).
 */
export async function runRow(
  apollo: SkiffServer["apollo"],
  route: RestRoute,
  req: RestRequest,
  contextValue: Context,
): Promise<RestResponse> {
  let variables: Record<string, unknown>;
  try {
    variables = route.variables(req);
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
 * type, up to the row's `bodyLimit`); no credentials are asked for: the row checks its own. The path's other
 * methods answer 405 with `Allow`.
 */
function registerCallback(app: FastifyInstance, route: CallbackRestRoute, services: CallbackServices): void {
  const bodyLimit = route.bodyLimit ?? 1024 * 1024;
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser("*", { parseAs: "buffer", bodyLimit }, (_request, body, done) => done(null, body));
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
          .send({ error: `Method not allowed: use ${route.method}` }),
    });
  });
}

function registerOne(
  app: FastifyInstance,
  route: RestRoute | Extract<AnyRestRoute, { serve: unknown }>,
  handle: (req: RestRequest, headers: Record<string, string | undefined>, requestId: string) => Promise<RestResponse>,
): void {
  app.route({
    method: route.method,
    url: route.path,
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
      );
      if (result.headers) reply.headers(result.headers);
      if (result.status === 503) reply.header("retry-after", String(RETRY_AFTER_SECONDS));
      return reply.code(result.status).send(result.body);
    },
  });
}
