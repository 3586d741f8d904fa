/**
 * Start-up sequence shared by `npm start` and the tests: database (embedded or DATABASE_URL) → secret
 * → migrations (ours and graphile-worker's) → auth → HTTP server → first-run bootstrap → job runner (unless
 * SKIFF_WORKER=false) → ready (`/readyz` 200). And the shutdown sequence, in reverse: not ready → drain HTTP (waits
 * inside requests end early, every request is answered) beside the jobs (running ones finish or return to the queue)
 * → close WebSockets (1012) → pubsub → database.
 */
import type { Knex } from "knex";
import { Model } from "objection";
import pino, { type Logger } from "pino";
import { closeAuth, createAuth } from "../auth/auth.ts";
import type { Mailer } from "../auth/mailer.ts";
import type { Config } from "../config.ts";
import { type DatabaseTarget, resolveDatabase } from "../db/connect.ts";
import { ensureSecret, verifySecret } from "../db/instance-secret.ts";
import { createKnex, migrateLatest } from "../db/knex.ts";
import { preparesStatements } from "../db/prepared-statements.ts";
import { createSecretBox } from "../db/secrets.ts";
import { createOutboundClient, type LookupFn } from "../http/outbound-client.ts";
import type { JobDefinition } from "../jobs/job-definition.ts";
import { jobMetrics } from "../jobs/job-metrics.ts";
import { createJobQueue } from "../jobs/job-queue.ts";
import { type JobRunner, startJobRunner } from "../jobs/job-runner.ts";
import { migrateJobSchema } from "../jobs/job-schema.ts";
import { replaceApiKeySecret } from "../modules/api-keys/index.ts";
import { moduleJobs, startModuleWorkers } from "../modules/index.ts";
import { createMailer, queuedMailer } from "../modules/mail/index.ts";
import type { ModuleWorker } from "../modules/module.ts";
import { bootstrapFirstRun, type FirstRun } from "../modules/organizations/index.ts";
import type { AppServices } from "../modules/services.ts";
import { emitAccountEvent } from "../modules/team/index.ts";
import { processReadMode, type ReadMode } from "../reads/index.ts";
import { bounded } from "../shared/bounded.ts";
import { createPubSub } from "../shared/pubsub.ts";
import { createShutdown } from "../shared/shutdown.ts";
import { createServer, type SkiffServer } from "./app.ts";
import { connectionBudget } from "./connections.ts";
import { requestSerializer } from "./log-redaction.ts";
import { watchPool } from "./metrics.ts";

/** A running Skiff instance. */
export interface RunningSkiff extends SkiffServer {
  /** Base URL it listens on, e.g. `http://127.0.0.1:4000`. */
  url: string;
  /** URL of `GET /metrics`: on the metrics listener (SKIFF_METRICS_PORT), or under `url` when that is `main`. */
  metricsUrl: string;
  database: DatabaseTarget;
  /** What the first-run bootstrap created (plaintext secrets, to print once), or null when it did not run. */
  firstRun: FirstRun | null;
  /** The background job runner, null when SKIFF_WORKER=false. */
  runner: JobRunner | null;
  /**
   * Graceful shutdown (idempotent): `/readyz` 503, stop accepting, answer in-flight requests within
   * SKIFF_SHUTDOWN_TIMEOUT seconds (an import still running answers 202, its run left to the next instance; a
   * handler that has not answered by then, 503) while the job runner stops (running jobs finish or return to the
   * queue), close WebSockets with 1012, then pubsub, the pool, and the embedded database last.
   */
  stop(): Promise<void>;
}

/**
 * Builds the root logger: JSON lines, or human-readable lines (pino-pretty, in a worker thread) when
 * `pretty` (default: stdout is a terminal). Request lines go through log-redaction.ts (no credentials in URLs).
 */
export function createLogger(config: Config, pretty: boolean = process.stdout.isTTY === true): Logger {
  return pino({
    level: config.LOG_LEVEL,
    redact: ["req.headers.authorization", 'req.headers["x-api-key"]', "req.headers.cookie"],
    serializers: { req: requestSerializer },
    ...(pretty && { transport: { target: "pino-pretty", options: { translateTime: "SYS:HH:MM:ss.l" } } }),
  });
}

/** Replaceable dependencies of {@link startSkiff} (tests): the clock, the mailer, extra jobs. */
export interface StartOptions {
  /** Default: `() => new Date()`. */
  now?: () => Date;
  /** Default: SMTP when SMTP_URL is set, else the outbox (see src/modules/mail/mailer.ts). */
  mailer?: Mailer;
  /** Job definitions registered besides the modules' (tests). */
  jobs?: JobDefinition[];
  /** Resolver of the outbound client (tests point it at a local DNS server). Default: the system's. */
  outboundLookup?: LookupFn;
  /**
   * How GraphQL reads run (src/reads/planner.ts). Default: the process's (`"compiled"`, unless a benchmark preloaded
   * bench/executor-reads.ts); `"executor"` is for comparisons: every query through graphql-js, no remembered callers.
   */
  readMode?: ReadMode;
}

/**
 * Starts a Skiff instance listening on HOST:PORT; when SKIFF_BOOTSTRAP is on and the database has no user,
 * creates the first owner, organization (plan `unlimited`) and API key before reporting ready.
 * @throws when the database, migrations, listening or the bootstrap fail (what was started is stopped).
 */
export async function startSkiff(
  config: Config,
  log: Logger = createLogger(config),
  options: StartOptions = {},
): Promise<RunningSkiff> {
  // The database first: the embedded one takes the data directory's lock before anything there is written.
  const database = await resolveDatabase(config, log.child({ component: "embedded-postgres" }));
  const secret = await ensureSecret(config).catch(async (error: unknown) => {
    await database.stop();
    throw error;
  });
  // Session work (LISTEN, the job runner, migrations' lock) needs a session connection: DATABASE_SESSION_URL when
  // DATABASE_URL is a transaction-mode pooler; request traffic always goes through DATABASE_URL.
  const sessionUrl = (config.DATABASE_URL && config.DATABASE_SESSION_URL) || database.url;
  const knex = createKnex(
    database.url,
    { max: config.SKIFF_DB_POOL_MAX, unnamedStatements: !preparesStatements(config) },
    log,
  );
  // The most this instance holds at once (README "Connections per instance"): replicas × total must fit the server.
  const connections = connectionBudget(config);
  log.info({ connections }, `database connections per instance: at most ${connections.total}`);
  const secrets = createSecretBox(secret);
  try {
    const applied = await migrateOnSession(sessionUrl === database.url ? knex : sessionUrl, knex);
    if (applied.length) log.info({ applied }, "migrations applied");
    await migrateJobSchema(sessionUrl, log);
    await verifySecret(knex, secrets, config.SKIFF_SECRET ? "SKIFF_SECRET" : `${config.SKIFF_DATA_DIR}/secret`);
  } catch (error) {
    await knex.destroy();
    await database.stop();
    throw error;
  }
  const baseURL = config.SKIFF_BASE_URL ?? `http://localhost:${config.PORT}`;
  const mailer = options.mailer ?? createMailer(config, knex, log);
  const jobs = createJobQueue([...moduleJobs, ...(options.jobs ?? [])]);
  // Job metrics exist from the first scrape, every task at 0, worker or not.
  jobMetrics(jobs.definitions.map((d) => d.name));
  // better-auth's verification mails become `mail.send` jobs (enqueued right after its own writes).
  const auth = createAuth({ ...config, SKIFF_SECRET: secret, SKIFF_BASE_URL: baseURL }, database.url, {
    log,
    mailer: queuedMailer({ jobs, secrets }, knex),
    // Webhook events of sign-up and verification (to the user's organizations, if any yet).
    onAccountEvent: async (event, userId) => emitAccountEvent({ knex, services }, event, userId),
  });
  const shutdownNotice = createShutdown();
  const services: AppServices = {
    config: { ...config, SKIFF_BASE_URL: baseURL },
    knex,
    auth,
    secrets,
    log,
    pubsub: await createPubSub(sessionUrl, knex, log, config.SKIFF_EVENT_LOG_RETENTION_SECONDS * 1000),
    mailer,
    outbound: createOutboundClient({
      allow: config.SKIFF_OUTBOUND_ALLOW,
      clusterDomain: config.SKIFF_CLUSTER_DOMAIN,
      log: log.child({ component: "outbound" }),
      lookup: options.outboundLookup,
      dnsCacheMs: config.SKIFF_OUTBOUND_DNS_CACHE_SECONDS * 1000,
    }),
    jobs,
    now: options.now ?? (() => new Date()),
    shutdown: shutdownNotice,
    readMode: options.readMode ?? processReadMode(),
  };
  const unwatchPool = watchPool(knex);
  const server = await createServer(services, database.url);
  let runner: JobRunner | null = null;
  let workers: ModuleWorker[] = [];

  /**
   * The shutdown, bounded in every state of the database: at most SKIFF_SHUTDOWN_TIMEOUT seconds for
   * in-flight requests and running jobs (side by side), then at most 1.5 s for sockets and pools, then at most 4 s
   * for the embedded PostgreSQL. A step past its deadline is abandoned and logged; the next one runs anyway.
   */
  async function shutdown(): Promise<void> {
    const started = Date.now();
    const steps: Record<string, number> = {};
    const abandoned: string[] = [];
    const step = async (name: string, run: () => Promise<unknown> | undefined, ms: number) => {
      const at = Date.now();
      const outcome = await bounded(Promise.resolve().then(run), ms);
      steps[name] = Date.now() - at;
      if (outcome.done) return;
      abandoned.push(name);
      if (outcome.reason === "timeout") log.warn({ step: name, ms }, "shutdown: step abandoned at its deadline");
      else log.warn({ step: name, err: outcome.error }, "shutdown: step failed; going on");
    };
    server.lifecycle.stopping = true;
    const inFlight = server.requests.inFlight;
    const requestsMs = config.SKIFF_SHUTDOWN_TIMEOUT * 1000;
    // Waits inside requests (an import for its run) end here and answer what they answer past their own limit.
    shutdownNotice.begin(started + requestsMs - answerMarginMs(requestsMs));
    let late = 0;
    await Promise.all([
      step(
        "drain",
        async () => {
          late = await server.requests.drain(requestsMs);
        },
        // The drain's own last answers (503s at its deadline) are written within this margin.
        requestsMs + 500,
      ),
      // Stop taking jobs; running ones finish (or return to the queue) within the same time.
      step("jobs", () => runner?.stop(), requestsMs + 250),
      // Webhook attempts in flight finish, or are given back to the queue, within the workers' time.
      // Modules' own workers (the webhooks' dispatcher): work in flight finishes, or is given back, in the same time.
      step(
        "workers",
        () =>
          Promise.all(
            workers.map((w) =>
              w.stop(Math.min(config.SKIFF_WORKER_SHUTDOWN_TIMEOUT_MS, config.SKIFF_SHUTDOWN_TIMEOUT * 1000)),
            ),
          ),
        requestsMs + 250,
      ),
    ]);
    if (late) {
      log.warn(
        { late, timeoutSeconds: config.SKIFF_SHUTDOWN_TIMEOUT },
        "shutdown: requests not answered by their handlers at the timeout answered 503",
      );
    }
    const connectionsBy = Date.now() + 1500;
    const left = () => connectionsBy - Date.now();
    // Subscribers got the events of the runs the drained requests waited for; they are told to reconnect (1012).
    await step("websockets", () => server.subscriptions.closeAll(Math.max(0, left() - 300)), left());
    await step("server", () => server.app.close(), left());
    const { metrics } = server;
    if (metrics) await step("metrics", () => metrics.close(), left());
    await step("auth", () => closeAuth(auth), left());
    await step("outbound", () => services.outbound.close(), left());
    await step("pubsub", () => services.pubsub.close(), left());
    unwatchPool();
    await step("pool", () => knex.destroy(), left());
    await step("database", () => database.stop(), 4000);
    log.info({ inFlight, late, ms: Date.now() - started, steps, abandoned }, "shutdown complete");
  }
  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= shutdown();
    return stopping;
  };

  let firstRun: FirstRun | null = null;
  try {
    await server.app.listen({ host: config.HOST, port: config.PORT });
    if (server.metrics && config.SKIFF_METRICS_PORT !== "main") {
      await server.metrics.listen({ host: config.HOST, port: config.SKIFF_METRICS_PORT });
    }
    if (config.SKIFF_BOOTSTRAP) firstRun = await bootstrap(services);
    if (config.SKIFF_WORKER) {
      runner = await startJobRunner({
        databaseUrl: sessionUrl,
        queue: jobs,
        services,
        log,
        concurrency: config.SKIFF_WORKER_CONCURRENCY,
        poolMax: config.SKIFF_WORKER_POOL_MAX,
        localQueueSize: config.SKIFF_WORKER_LOCAL_QUEUE,
        // Within the shutdown's own time for requests (see shutdown()).
        shutdownTimeoutMs: Math.min(config.SKIFF_WORKER_SHUTDOWN_TIMEOUT_MS, config.SKIFF_SHUTDOWN_TIMEOUT * 1000),
      });
      const started = runner;
      workers = startModuleWorkers(services, log, started.pool);
      server.lifecycle.jobsRunning = () => started.running;
    }
  } catch (error) {
    await stop().catch(() => {});
    throw error;
  }
  server.lifecycle.ready = true;
  const host = config.HOST === "0.0.0.0" ? "127.0.0.1" : config.HOST;
  const port = (server.app.server.address() as { port: number }).port;
  const url = `http://${host}:${port}`;
  const metricsPort = server.metrics ? (server.metrics.server.address() as { port: number }).port : null;
  return {
    ...server,
    runner,
    url,
    metricsUrl: metricsPort === null ? `${url}/metrics` : `http://${host}:${metricsPort}/metrics`,
    database,
    firstRun,
    stop,
  };
}

/**
 * Milliseconds before the drain's deadline (`timeoutMs`, SKIFF_SHUTDOWN_TIMEOUT) at which waits inside requests end
 * (src/shared/shutdown.ts), left to write their answers: a quarter of the timeout, at most 2 s.
 */
function answerMarginMs(timeoutMs: number): number {
  return Math.min(2000, timeoutMs / 4);
}

/**
 * Applies the pending migrations under their session advisory lock (`migrateLatest`) on `target`: the request
 * Knex itself, or a session URL, then on a short-lived Knex of its own (Objection's models are bound back to
 * `requests` afterwards). @returns the migrations applied. @throws what the migration throws.
 */
async function migrateOnSession(target: Knex | string, requests: Knex): Promise<string[]> {
  if (typeof target !== "string") return migrateLatest(target);
  // Two: migrateLatest holds one for the lock while Knex migrates on another.
  const session = createKnex(target, { max: 2 });
  try {
    return await migrateLatest(session);
  } finally {
    Model.knex(requests);
    await session.destroy();
  }
}

/** First run on an empty database (src/modules/organizations/first-run.service.ts); its organization gets the `unlimited` plan. */
async function bootstrap(services: AppServices): Promise<FirstRun | null> {
  const { config, log, knex, auth } = services;
  const first = await bootstrapFirstRun(auth, knex, {
    email: config.SKIFF_BOOTSTRAP_EMAIL,
    password: config.SKIFF_BOOTSTRAP_PASSWORD,
    apiKey: config.SKIFF_BOOTSTRAP_API_KEY,
    storeApiKey: replaceApiKeySecret,
    log,
  });
  if (first) await knex("organizations").where({ id: first.organizationId }).update({ plan_id: "plan_unlimited" });
  return first;
}
