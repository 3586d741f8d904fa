/**
 * The long-lived dependencies of one Skiff instance, built once at start-up (src/server/start.ts) and
 * handed to every request context, job and REST row.
 */
import type { Knex } from "knex";
import type { Logger } from "pino";
import type { Auth } from "../auth/auth.ts";
import type { Mailer } from "../auth/mailer.ts";
import type { Config } from "../config.ts";
import type { SecretBox } from "../db/secrets.ts";
import type { OutboundClient } from "../http/outbound-client.ts";
import type { JobQueue } from "../jobs/job-queue.ts";
import type { ReadMode } from "../reads/index.ts";
import type { PubSub } from "../shared/pubsub.ts";
import type { Shutdown } from "../shared/shutdown.ts";

/** Long-lived dependencies shared by every request. */
export interface AppServices {
  config: Config;
  knex: Knex;
  auth: Auth;
  secrets: SecretBox;
  log: Logger;
  /** Cross-instance events (LISTEN/NOTIFY), e.g. site import status changes for subscriptions. */
  pubsub: PubSub;
  /** Outgoing mail: SMTP when SMTP_URL is set, else the local outbox (src/modules/mail/mailer.ts). */
  mailer: Mailer;
  /** HTTP calls to URLs users gave (webhooks, relays, probes): SSRF-checked, pinned, no redirects (src/http). */
  outbound: OutboundClient;
  /**
   * Background jobs (src/jobs): `jobs.enqueue(trx, name, payload, { runAt, jobKey })` inside the caller's
   * transaction, so the job commits or rolls back with it.
   */
  jobs: JobQueue;
  /** The current time; services use it for expiries (invitations) so tests can move the clock. */
  now: () => Date;
  /**
   * The graceful shutdown: waits inside a request (an import for its run, a webhook test for its first attempt)
   * take their deadline from it, so they answer while the server drains (src/shared/shutdown.ts).
   */
  shutdown: Shutdown;
  /**
   * How GraphQL reads run (src/reads/planner.ts): `"compiled"`; `"executor"` (every query through graphql-js, every
   * request authenticated on its own) only where tests and benchmarks compare the two (the start option `readMode`).
   */
  readMode: ReadMode;
}

declare module "../shared/rest-route.ts" {
  /** Callback rows (inbound signed callbacks) receive the whole service bundle too. */
  interface CallbackServices extends AppServices {}
}

declare module "../jobs/job-definition.ts" {
  /** Job handlers receive the whole service bundle (see JobServices). */
  interface JobServices extends AppServices {}
}
