/**
 * The HTTP server: Fastify with Apollo Server at /graphql (GET and POST, CSRF prevention on),
 * graphql-ws subscriptions on the same path, better-auth at /api/auth/*, health probes, Prometheus
 * metrics, and the REST compatibility routes.
 */
import { ApolloServer, type ApolloServerPlugin } from "@apollo/server";
import {
  ApolloServerPluginCacheControlDisabled,
  ApolloServerPluginLandingPageDisabled,
} from "@apollo/server/plugin/disabled";
import fastifyApollo, { fastifyApolloDrainPlugin } from "@as-integrations/fastify";
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from "fastify";
import { trustedOriginsOf } from "../auth/auth.ts";
import { mcpEnabled } from "../config.ts";
import { preparesStatements } from "../db/prepared-statements.ts";
import { proxyTrust } from "../http/client-address.ts";
import type { Context } from "../modules/context.ts";
import { moduleComputedColumns, moduleReads, restRoutes } from "../modules/index.ts";
import type { AppServices } from "../modules/services.ts";
import { isDatabaseUnavailable } from "../shared/database-unavailable.ts";
import { actingOrganizationPlugin } from "./acting-organization.ts";
import { anonymousOperationsPlugin } from "./anonymous-operations.ts";
import { recordAuthCall } from "./auth-audit.ts";
import { resolveAuthCallers } from "./auth-callers.ts";
import { registerAuthRoutes } from "./auth-routes.ts";
import {
  authenticate,
  invalidCredentialsError,
  joinRepeatedAuthorization,
  presentsCredentials,
  refuseUntrustedOrigins,
} from "./authenticate.ts";
import { compiledReadsPlugin, stringifyResult } from "./compiled-reads.ts";
import { buildContext, withOrigin } from "./context.ts";
import { type RequestDrain, trackRequests } from "./drain.ts";
import {
  createFormatError,
  createHttpErrorHandler,
  createNotFoundHandler,
  frameworkErrorHandler,
  MAX_PATH_PARAMETER_LENGTH,
  unavailableError,
  unavailablePlugin,
} from "./format-error.ts";
import { inputChecksPlugin } from "./input-checks.ts";
import { parseJsonBodies, refuseEncodedBodies, refuseForbiddenQueryKeys } from "./json-bodies.ts";
import { registerMcp } from "./mcp.ts";
import {
  createMetricsServer,
  graphqlMetricsPlugin,
  initialiseOperationMetrics,
  observeResponses,
  serveMetrics,
} from "./metrics.ts";
import { partialDataPlugin } from "./partial-data.ts";
import { queryCostPlugin } from "./query-cost.ts";
import { checkDocumentSize, queryLimits } from "./query-limits.ts";
import { createReadinessCheck } from "./readiness.ts";
import { refusedMutationsPlugin } from "./refused-mutations.ts";
import { callerConfirmationPlugin, rememberedContext } from "./remembered-callers.ts";
import { echoRequestId, requestIdFor } from "./request-id.ts";
import { RequestLog } from "./request-log.ts";
import { capResponseSize } from "./response-size.ts";
import { RestDocumentStore } from "./rest-documents.ts";
import { registerRestRoutes } from "./rest-runner.ts";
import { buildSchema, PUBLIC_ROOT_FIELDS } from "./schema.ts";
import { announceSessionEnds } from "./session-events.ts";
import { CHECK_INTERVAL_MS, limitSlowClients } from "./slow-clients.ts";
import { attachSubscriptions, type SubscriptionServer } from "./subscriptions.ts";
import { registerWeb } from "./web.ts";

/**
 * Where the instance is in its life: `/readyz` answers 200 only while `ready` (migrations and the first-run
 * bootstrap committed), not `stopping`, and, on a worker instance, while `jobsRunning()` (false while the job
 * runner's worker pool is down and being restarted).
 */
export interface Lifecycle {
  ready: boolean;
  stopping: boolean;
  jobsRunning?: () => boolean;
}

/** A built server: Fastify instance plus the Apollo server used for in-process REST execution. */
export interface SkiffServer {
  app: FastifyInstance;
  apollo: ApolloServer<Context>;
  services: AppServices;
  lifecycle: Lifecycle;
  /** In-flight HTTP requests, drained on shutdown. */
  requests: RequestDrain;
  /** The graphql-ws side, whose sockets are closed with 1012 on shutdown. */
  subscriptions: SubscriptionServer;
  /** The metrics listener (not listening yet), or null when /metrics is on `app` (SKIFF_METRICS_PORT=main). */
  metrics: FastifyInstance | null;
}

/**
 * Routes outside the REST table kept when SKIFF_PUBLIC_API_ONLY=true (spec: Versioning, rule 6): the published
 * ones, and the operator's probes and metrics (/metrics, when served here: SKIFF_METRICS_PORT=main).
 */
const PUBLISHED_PATHS = ["/graphql", "/api/auth/*", "/healthz", "/readyz", "/metrics"];

/**
 * Builds (but does not start listening) the HTTP server on the database of `databaseUrl` (its `/readyz` checks it on
 * a connection of its own); its lifecycle starts not ready.
 */
export async function createServer(services: AppServices, databaseUrl: string): Promise<SkiffServer> {
  const readiness = createReadinessCheck(databaseUrl, services.knex);
  const app = Fastify({
    loggerInstance: services.log as FastifyBaseLogger,
    genReqId: requestIdFor,
    logController: new RequestLog(),
    // `request.ip` (auth limits, request logs, session addresses): the rightmost address that is not a trusted
    // proxy (src/http/client-address.ts), as the WebSocket upgrade resolves it.
    trustProxy: proxyTrust(services.config.SKIFF_TRUST_PROXY),
    routerOptions: { maxParamLength: MAX_PATH_PARAMETER_LENGTH },
    frameworkErrors: frameworkErrorHandler,
    http: { connectionsCheckingInterval: CHECK_INTERVAL_MS },
  });
  limitSlowClients(app.server);
  const requests = trackRequests(app.server);
  app.addHook("onClose", () => readiness.close());
  const lifecycle: Lifecycle = { ready: false, stopping: false };
  const reads = { timeoutMs: services.config.SKIFF_EXECUTION_TIMEOUT_MS, prepare: preparesStatements(services.config) };
  const schema = buildSchema(reads);
  const compiledReads = services.readMode === "compiled";
  const limits = queryLimits(services.config);
  // REST rows' documents parsed and validated here, once: their calls skip both (rest-documents.ts).
  const documentStore = new RestDocumentStore();
  documentStore.pin(restRoutes, schema, limits.validate);
  const apollo = new ApolloServer<Context>({
    schema,
    documentStore,
    // SKIFF_INTROSPECTION=false is our own validation rule, whose error names the setting (query-limits.ts).
    introspection: true,
    // src/main.ts owns SIGTERM/SIGINT: Apollo's own handler would cut every connection and re-raise the signal.
    stopOnTerminationSignals: false,
    parseOptions: limits.apollo.parseOptions,
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
      // No landing page in any mode: a GET asking for HTML answers as any GET without a query (Apollo's default
      // page is the Sandbox, scripts from a CDN and telemetry, served without a Content-Security-Policy of Skiff's).
      ApolloServerPluginLandingPageDisabled(),
      graphqlMetricsPlugin<Context>(),
      ...(limits.apollo.plugins as ApolloServerPlugin<Context>[]),
      inputChecksPlugin<Context>(),
      // An anonymous operation selecting anything but the public root fields is refused whole (401, no data).
      anonymousOperationsPlugin<Context>(PUBLIC_ROOT_FIELDS),
      unavailablePlugin<Context>(),
      queryCostPlugin<Context>(services.config.SKIFF_MAX_QUERY_COST, services.config.SKIFF_EXECUTION_TIMEOUT_MS),
      // Last: runs only once every operation-level check above has passed.
      ...(compiledReads
        ? [compiledReadsPlugin({ types: moduleReads, computedColumns: moduleComputedColumns, options: reads })]
        : []),
      // After them: no operation runs, and no answer goes out, for a remembered caller that was not confirmed.
      callerConfirmationPlugin(),
      // A mutation refused before any field ran (validation, variables) leaves its audit entries.
      refusedMutationsPlugin(),
      // A response with data is a 2xx, whatever its errors ask for (GraphQL over HTTP).
      partialDataPlugin<Context>(),
      // The organization the answer was read in, for the dashboard (docs/dashboard.md).
      actingOrganizationPlugin(),
    ],
    stringifyResult,
  });
  await apollo.start();

  app.setErrorHandler(createHttpErrorHandler(services.log));
  app.setNotFoundHandler(createNotFoundHandler(!services.config.SKIFF_PUBLIC_API_ONLY));
  joinRepeatedAuthorization(app);
  refuseUntrustedOrigins(app, new Set(trustedOriginsOf(services.config)));
  parseJsonBodies(app);
  refuseEncodedBodies(app);
  refuseForbiddenQueryKeys(app, "/graphql");
  echoRequestId(app);
  capResponseSize(app, services.config.SKIFF_MAX_RESPONSE_BYTES);
  checkDocumentSize(app);
  observeResponses(app);
  // /metrics on a listener of its own unless SKIFF_METRICS_PORT=main: the public Service exposes only PORT.
  const metricsToken = services.config.SKIFF_METRICS_TOKEN;
  const metrics = services.config.SKIFF_METRICS_PORT === "main" ? null : createMetricsServer(metricsToken);
  if (!metrics) serveMetrics(app, metricsToken);
  initialiseOperationMetrics(restRoutes.flatMap((route) => ("operation" in route ? [route.operation] : [])));
  app.get("/healthz", async () => ({ status: "ok" }));
  app.get("/readyz", async (_req, reply) => {
    if (lifecycle.stopping) return reply.code(503).send({ status: "shutting down" });
    if (!lifecycle.ready) return reply.code(503).send({ status: "starting" });
    if (lifecycle.jobsRunning && !lifecycle.jobsRunning()) {
      return reply.code(503).send({ status: "job runner restarting" });
    }
    // Answered within a probe's usual 1 s timeout, on a connection of its own (src/server/readiness.ts).
    const status = await readiness.check();
    return reply.code(status === "ready" ? 200 : 503).send({ status });
  });

  const authCallers = resolveAuthCallers(app, services);
  announceSessionEnds(app, services, authCallers);
  registerAuthRoutes(app, services.auth, (request, response) =>
    recordAuthCall(services, request, response, authCallers(request)),
  );
  await app.register(fastifyApollo(apollo), {
    path: "/graphql",
    method: ["GET", "POST"],
    context: async (request) => {
      // A key this process resolved before: its caller is confirmed by the read itself (remembered-callers.ts).
      const remembered = compiledReads ? rememberedContext(services, request.headers, request.id, "graphql") : null;
      if (remembered) return withOrigin(remembered, "GRAPHQL", request.headers, request.ip);
      const principal = await authenticate(services, request.headers, "graphql").catch((error: unknown) => {
        throw isDatabaseUnavailable(error) ? unavailableError() : error;
      });
      // A credential that does not verify (unknown, revoked, an agent token) is refused whatever the
      // operation, rather than served as anonymous.
      if (!principal && presentsCredentials(request.headers)) {
        throw invalidCredentialsError();
      }
      return withOrigin(buildContext(services, principal, request.id), "GRAPHQL", request.headers, request.ip);
    },
  });
  // Another method on /graphql: 405 naming the two it serves (Skiff answers no CORS preflight: pages of other
  // origins do not call it with credentials).
  app.route({
    method: ["PUT", "PATCH", "DELETE", "OPTIONS"],
    url: "/graphql",
    handler: async (_request, reply) =>
      reply
        .code(405)
        .header("allow", "GET, POST")
        .send({
          errors: [
            { message: "Method not allowed: /graphql serves GET and POST", extensions: { code: "METHOD_NOT_ALLOWED" } },
          ],
        }),
  });
  const subscriptions = attachSubscriptions(app, schema, services, limits.validate);
  await registerWeb(app, services.config);
  const server = { app, apollo, services, lifecycle, requests, subscriptions, metrics };
  const mcp = mcpEnabled(services.config);
  if (mcp) registerMcp(server);
  registerRestRoutes(server, restRoutes, services.config.SKIFF_PUBLIC_API_ONLY, [
    ...PUBLISHED_PATHS,
    ...(mcp ? ["/mcp"] : []),
  ]);
  return server;
}
