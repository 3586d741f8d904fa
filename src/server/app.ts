/**
 * The HTTP server: Fastify with Apollo Server at /graphql (GET and POST, CSRF prevention on),
 * graphql-ws subscriptions on the same path, better-auth at /api/auth/*, health probes,
 * and the REST compatibility routes.
 */
import { ApolloServer, type ApolloServerPlugin } from "@apollo/server";
import { ApolloServerPluginCacheControlDisabled } from "@apollo/server/plugin/disabled";
import fastifyApollo, { fastifyApolloDrainPlugin } from "@as-integrations/fastify";
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from "fastify";
import { migrationsCurrent } from "../db/knex.ts";
import type { Context } from "../modules/context.ts";
import { restRoutes } from "../rest/routes.ts";
import type { AppServices } from "../shared/services.ts";
import { registerAuthRoutes } from "./auth-routes.ts";
import { authenticate } from "./authenticate.ts";
import { buildContext } from "./context.ts";
import { createFormatError, createHttpErrorHandler } from "./format-error.ts";
import { queryLimits } from "./query-limits.ts";
import { registerRestRoutes } from "./rest-runner.ts";
import { buildSchema } from "./schema.ts";
import { attachSubscriptions } from "./subscriptions.ts";
import { registerWeb } from "./web.ts";

/** A built server: Fastify instance plus the Apollo server used for in-process REST execution. */
export interface SkiffServer {
  app: FastifyInstance;
  apollo: ApolloServer<Context>;
  services: AppServices;
}

/** Published routes outside the REST table, kept when SKIFF_PUBLIC_API_ONLY=true (spec: Versioning, rule 6). */
const PUBLISHED_PATHS = ["/graphql", "/api/auth/*", "/healthz", "/readyz"];

/** Builds (but does not start listening) the HTTP server. */
export async function createServer(services: AppServices): Promise<SkiffServer> {
  const app = Fastify({ loggerInstance: services.log as FastifyBaseLogger, genReqId: () => crypto.randomUUID() });
  const schema = buildSchema();
  const limits = queryLimits(services.config);
  const apollo = new ApolloServer<Context>({
    schema,
    csrfPrevention: true,
    includeStacktraceInErrorResponses: false,
    allowBatchedHttpRequests: false,
    validationRules: limits.apollo.validationRules,
    formatError: createFormatError(services.log),
    logger: services.log,
    // No @cacheControl hints are used; the plugin's per-field bookkeeping cost ~40% of throughput on large trees.
    plugins: [
      fastifyApolloDrainPlugin(app),
      ApolloServerPluginCacheControlDisabled(),
      ...(limits.apollo.plugins as ApolloServerPlugin<Context>[]),
    ],
  });
  await apollo.start();

  app.setErrorHandler(createHttpErrorHandler(services.log));
  app.get("/healthz", async () => ({ status: "ok" }));
  app.get("/readyz", async (_req, reply) => {
    try {
      const current = await migrationsCurrent(services.knex);
      return reply.code(current ? 200 : 503).send({ status: current ? "ready" : "migrations pending" });
    } catch {
      return reply.code(503).send({ status: "database unreachable" });
    }
  });

  registerAuthRoutes(app, services.auth);
  await app.register(fastifyApollo(apollo), {
    path: "/graphql",
    method: ["GET", "POST", "OPTIONS"],
    context: async (request) =>
      buildContext(services, await authenticate(services, request.headers, "graphql"), request.id),
  });
  attachSubscriptions(app, schema, services, limits.validate);
  await registerWeb(app, services.config);
  const server = { app, apollo, services };
  registerRestRoutes(server, restRoutes, services.config.SKIFF_PUBLIC_API_ONLY, PUBLISHED_PATHS);
  return server;
}
