/**
 * Registers the REST route table on Fastify: authenticate for the row's surface, execute its GraphQL
 * operation in-process through Apollo (same validation, resolvers, services and error formatting as
 * /graphql), then let the row shape status and body.
 */
import type { FastifyInstance } from "fastify";
import { GraphQLError } from "graphql";
import type { SkiffServer } from "../server/app.ts";
import { authenticate } from "../server/authenticate.ts";
import { buildContext } from "../server/context.ts";
import { AppError } from "../server/errors.ts";
import { type RestRequest, type RestRoute, STATUS_OF_CODE } from "./route-table.ts";

/** Registers every row of `routes`; with `publicOnly`, unpublished rows are not registered (→ 404). */
export function registerRestRoutes(server: SkiffServer, routes: readonly RestRoute[], publicOnly: boolean): void {
  const { app, apollo, services } = server;
  for (const route of routes) {
    if (publicOnly && !route.published) continue;
    registerOne(app, route, async (req, headers, requestId) => {
      const principal = await authenticate(services, headers, route.surface);
      if (!principal)
        return route.error(toRestError(new AppError("UNAUTHENTICATED", "Missing or invalid credentials")), 401);
      let variables: Record<string, unknown>;
      try {
        variables = route.variables(req);
      } catch (e) {
        if (!(e instanceof GraphQLError)) throw e;
        return fail(route, toRestError(e));
      }
      const response = await apollo.executeOperation(
        { query: route.operation, variables },
        { contextValue: buildContext(services, principal, requestId) },
      );
      if (response.body.kind !== "single") throw new Error("Incremental delivery is not supported on REST routes");
      const { data, errors } = response.body.singleResult;
      if (errors?.length) return fail(route, errors[0]!);
      return route.respond((data ?? {}) as Record<string, unknown>);
    });
  }
}

function fail(route: RestRoute, error: ReturnType<typeof toRestError>) {
  const code = String(error.extensions?.code ?? "INTERNAL_SERVER_ERROR");
  return route.error(error, STATUS_OF_CODE[code] ?? 500);
}

function toRestError(e: GraphQLError) {
  return e.toJSON();
}

function registerOne(
  app: FastifyInstance,
  route: RestRoute,
  handle: (
    req: RestRequest,
    headers: Record<string, string | undefined>,
    requestId: string,
  ) => Promise<{ status: number; body: unknown }>,
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
        },
        request.headers as Record<string, string | undefined>,
        request.id,
      );
      return reply.code(result.status).send(result.body);
    },
  });
}
