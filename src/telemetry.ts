/**
 * OpenTelemetry tracing, loaded by src/main.ts before anything else and only when
 * OTEL_EXPORTER_OTLP_ENDPOINT is set: spans of HTTP (incoming and `node:http` outgoing), outbound `fetch`
 * (undici), GraphQL (parse, validate, execute, resolvers) and PostgreSQL queries (pg), exported over OTLP/HTTP
 * to `$OTEL_EXPORTER_OTLP_ENDPOINT/v1/traces`. The standard OTEL_* variables apply (OTEL_SERVICE_NAME,
 * default `skiff`; OTEL_EXPORTER_OTLP_HEADERS, ...). Metrics stay on Prometheus (`/metrics`) and logs on stdout
 * unless OTEL_METRICS_EXPORTER / OTEL_LOGS_EXPORTER ask otherwise.
 */
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { GraphQLInstrumentation } from "@opentelemetry/instrumentation-graphql";
import { HttpInstrumentation } from "@opentelemetry/instrumentation-http";
import { PgInstrumentation } from "@opentelemetry/instrumentation-pg";
import { UndiciInstrumentation } from "@opentelemetry/instrumentation-undici";
import { NodeSDK } from "@opentelemetry/sdk-node";

/** A started tracer; `shutdown()` flushes the spans still buffered (call it before exiting). */
export interface Tracing {
  shutdown(): Promise<void>;
}

/**
 * Starts tracing. Must run before fastify, graphql and pg are loaded, so their modules are patched.
 * Health probes and /metrics scrapes are not traced.
 */
export function startTracing(): Tracing {
  process.env.OTEL_METRICS_EXPORTER ??= "none";
  process.env.OTEL_LOGS_EXPORTER ??= "none";
  const quiet = new Set(["/healthz", "/readyz", "/metrics"]);
  const sdk = new NodeSDK({
    serviceName: process.env.OTEL_SERVICE_NAME ?? "skiff",
    traceExporter: new OTLPTraceExporter(),
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (request) => quiet.has((request.url ?? "").split("?")[0] ?? ""),
      }),
      new UndiciInstrumentation(),
      new GraphQLInstrumentation({ mergeItems: true, ignoreTrivialResolveSpans: true }),
      new PgInstrumentation(),
    ],
  });
  sdk.start();
  return { shutdown: () => sdk.shutdown() };
}
