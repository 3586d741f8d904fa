/**
 * Start-up sequence shared by `npm start` and the tests: secret → database (embedded or DATABASE_URL)
 * → migrations → auth → HTTP server. Bootstrap of the first account is done by src/main.ts.
 */
import pino, { type Logger } from "pino";
import { closeAuth, createAuth } from "../auth/auth.ts";
import type { Mailer } from "../auth/mailer.ts";
import type { Config } from "../config.ts";
import { type DatabaseTarget, resolveDatabase } from "../db/connect.ts";
import { ensureSecret, verifySecret } from "../db/instance-secret.ts";
import { createKnex, migrateLatest } from "../db/knex.ts";
import { createSecretBox } from "../db/secrets.ts";
import { createMailer } from "../modules/mail/mailer.ts";
import { createPubSub } from "../shared/pubsub.ts";
import type { AppServices } from "../shared/services.ts";
import { createServer, type SkiffServer } from "./app.ts";

/** A running Skiff instance. */
export interface RunningSkiff extends SkiffServer {
  /** Base URL it listens on, e.g. `http://127.0.0.1:4000`. */
  url: string;
  database: DatabaseTarget;
  stop(): Promise<void>;
}

/** Builds the root logger (pretty output on a terminal). */
export function createLogger(config: Config): Logger {
  return pino({
    level: config.LOG_LEVEL,
    redact: ["req.headers.authorization", 'req.headers["x-api-key"]', "req.headers.cookie"],
  });
}

/** Replaceable dependencies of {@link startSkiff} (tests): the clock and the mailer. */
export interface StartOptions {
  /** Default: `() => new Date()`. */
  now?: () => Date;
  /** Default: SMTP when SMTP_URL is set, else the outbox (see src/modules/mail/mailer.ts). */
  mailer?: Mailer;
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
  const secrets = createSecretBox(secret);
  try {
    const applied = await migrateLatest(knex);
    if (applied.length) log.info({ applied }, "migrations applied");
    await verifySecret(knex, secrets, config.SKIFF_SECRET ? "SKIFF_SECRET" : `${config.SKIFF_DATA_DIR}/secret`);
  } catch (error) {
    await knex.destroy();
    await database.stop();
    throw error;
  }
  const baseURL = config.SKIFF_BASE_URL ?? `http://localhost:${config.PORT}`;
  const mailer = options.mailer ?? createMailer(config, knex, log);
  const auth = createAuth({ ...config, SKIFF_SECRET: secret, SKIFF_BASE_URL: baseURL }, database.url, {
    log,
    mailer,
  });
  const services: AppServices = {
    config: { ...config, SKIFF_BASE_URL: baseURL },
    knex,
    auth,
    secrets,
    log,
    pubsub: await createPubSub(database.url, knex, log),
    mailer,
    now: options.now ?? (() => new Date()),
  };
  const server = await createServer(services);
  await server.app.listen({ host: config.HOST, port: config.PORT });
  const port = (server.app.server.address() as { port: number }).port;
  return {
    ...server,
    url: `http://${config.HOST === "0.0.0.0" ? "127.0.0.1" : config.HOST}:${port}`,
    database,
    async stop() {
      await server.app.close();
      await closeAuth(auth);
      await services.pubsub.close();
      await knex.destroy();
      await database.stop();
    },
  };
}
