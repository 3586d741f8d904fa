/**
 * Start-up sequence shared by `npm start` and the tests: secret → database (embedded or DATABASE_URL)
 * → migrations (ours and graphile-worker's) → auth → HTTP server → job runner (unless SKIFF_WORKER=false). Bootstrap of the first account is done by src/main.ts.
 */
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import pino, { type Logger } from "pino";
import { closeAuth, createAuth } from "../auth/auth.ts";
import type { Mailer } from "../auth/mailer.ts";
import type { Config } from "../config.ts";
import { type DatabaseTarget, resolveDatabase } from "../db/connect.ts";
import { createKnex, migrateLatest } from "../db/knex.ts";
import { createSecretBox } from "../db/secrets.ts";
import type { JobDefinition } from "../jobs/job-definition.ts";
import { createJobQueue } from "../jobs/job-queue.ts";
import { type JobRunner, startJobRunner } from "../jobs/job-runner.ts";
import { migrateJobSchema } from "../jobs/job-schema.ts";
import { moduleJobs } from "../modules/jobs.ts";
import { queuedMailer } from "../modules/mail/mail.jobs.ts";
import { createMailer } from "../modules/mail/mailer.ts";
import { createPubSub } from "../shared/pubsub.ts";
import type { AppServices } from "../shared/services.ts";
import { createServer, type SkiffServer } from "./app.ts";

/** A running Skiff instance. */
export interface RunningSkiff extends SkiffServer {
  /** Base URL it listens on, e.g. `http://127.0.0.1:4000`. */
  url: string;
  database: DatabaseTarget;
  /** The background job runner, null when SKIFF_WORKER=false. */
  runner: JobRunner | null;
  /** Stops HTTP, lets running jobs finish (or returns them to the queue), closes the database. */
  stop(): Promise<void>;
}

/**
 * Returns SKIFF_SECRET, or a random secret persisted in `<dataDir>/secret` so that sessions and
 * encrypted values survive restarts of a development instance.
 */
export async function ensureSecret(config: Config): Promise<string> {
  if (config.SKIFF_SECRET) return config.SKIFF_SECRET;
  const file = join(config.SKIFF_DATA_DIR, "secret");
  if (existsSync(file)) return (await readFile(file, "utf8")).trim();
  await mkdir(config.SKIFF_DATA_DIR, { recursive: true });
  const secret = crypto.getRandomValues(new Uint8Array(32)).reduce((s, b) => s + b.toString(16).padStart(2, "0"), "");
  await writeFile(file, secret, { mode: 0o600 });
  return secret;
}

/** Builds the root logger (pretty output on a terminal). */
export function createLogger(config: Config): Logger {
  return pino({
    level: config.LOG_LEVEL,
    redact: ["req.headers.authorization", 'req.headers["x-api-key"]', "req.headers.cookie"],
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
}

/** Starts a Skiff instance listening on HOST:PORT. */
export async function startSkiff(
  config: Config,
  log: Logger = createLogger(config),
  options: StartOptions = {},
): Promise<RunningSkiff> {
  const secret = await ensureSecret(config);
  const database = await resolveDatabase(config);
  const knex = createKnex(database.url, { max: 20 });
  const applied = await migrateLatest(knex);
  if (applied.length) log.info({ applied }, "migrations applied");
  await migrateJobSchema(database.url, log);
  const baseURL = config.SKIFF_BASE_URL ?? `http://localhost:${config.PORT}`;
  const mailer = options.mailer ?? createMailer(config, knex, log);
  const jobs = createJobQueue([...moduleJobs, ...(options.jobs ?? [])]);
  const secrets = createSecretBox(secret);
  // better-auth's verification mails become `mail.send` jobs (enqueued right after its own writes).
  const auth = createAuth({ ...config, SKIFF_SECRET: secret, SKIFF_BASE_URL: baseURL }, database.url, {
    log,
    mailer: queuedMailer({ jobs, secrets }, knex),
  });
  const services: AppServices = {
    config: { ...config, SKIFF_BASE_URL: baseURL },
    knex,
    auth,
    secrets,
    log,
    pubsub: await createPubSub(database.url, knex, log),
    mailer,
    jobs,
    now: options.now ?? (() => new Date()),
  };
  const server = await createServer(services);
  await server.app.listen({ host: config.HOST, port: config.PORT });
  const port = (server.app.server.address() as { port: number }).port;
  const runner: JobRunner | null = config.SKIFF_WORKER
    ? await startJobRunner({
        databaseUrl: database.url,
        queue: jobs,
        services,
        log,
        concurrency: config.SKIFF_WORKER_CONCURRENCY,
        shutdownTimeoutMs: config.SKIFF_WORKER_SHUTDOWN_TIMEOUT_MS,
      })
    : null;
  return {
    ...server,
    runner,
    url: `http://${config.HOST === "0.0.0.0" ? "127.0.0.1" : config.HOST}:${port}`,
    database,
    async stop() {
      await server.app.close();
      await runner?.stop();
      await closeAuth(auth);
      await services.pubsub.close();
      await knex.destroy();
      await database.stop();
    },
  };
}
