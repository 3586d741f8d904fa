/**
 * What a background job is (ARCHITECTURE "Background work is a job"): a name, a zod payload schema, a retry
 * policy and a handler that calls a module's service. Modules declare theirs in `<module>.jobs.ts` with
 * {@link defineJob}; the queue (job-queue.ts) and the runner (job-runner.ts) receive the list and never import
 * modules.
 */

import type { Knex } from "knex";
import type { Logger } from "pino";
import type { z } from "zod";
import type { PubSub } from "../shared/pubsub.ts";
import type { EnqueueOptions } from "./job-queue.ts";

/**
 * How a failed attempt is retried.
 * - `none`: never (payment relays): the first failure is permanent.
 * - `waits`: exactly these waits in milliseconds between attempts (webhook delivery: `[1000, 4000]` = 3 attempts,
 *   the 2nd 1 s after the 1st failed, the 3rd 4 s after the 2nd failed). Each retry is a new queued job scheduled
 *   with `runAt` (graphile-worker's own backoff is exponential); the attempt number travels in the payload.
 * - `backoff` (default): graphile-worker's exponential backoff (`exp(min(attempt, 10))` seconds), up to
 *   `maxAttempts` attempts (default 25).
 */
export type RetryPolicy =
  | { kind: "none" }
  | { kind: "waits"; waitsMs: readonly number[] }
  | { kind: "backoff"; maxAttempts?: number };

/** A recurring job: graphile-worker's crontab, run once per tick across all instances. */
export interface JobSchedule {
  /** Crontab pattern in UTC, minute granularity, e.g. `"*\/5 * * * *"`. */
  cron: string;
  /** Payload of each scheduled run (validated with the job's schema when it runs). */
  payload?: Record<string, unknown>;
}

/**
 * The instance's services as handlers see them. The jobs layer needs only `knex` and `pubsub`; the modules widen
 * this interface to their whole service bundle by declaration merging (src/modules/services.ts), so handlers get
 * `AppServices` while src/jobs never imports a module.
 */
export interface JobServices {
  knex: Knex;
  pubsub: PubSub;
}

/** What a handler gets besides its payload. */
export interface JobContext {
  services: JobServices;
  /** Child logger with `job` (name) and `jobId`. */
  log: Logger;
  /** 1 for the first attempt (counted across `waits` retries too). */
  attempt: number;
  /** How many times this attempt was put off by {@link DeferJobError} so far (0 on its first run). */
  deferrals: number;
  /** The graphile-worker job id (a decimal string). */
  jobId: string;
  /** Aborted when the instance shuts down and the job should give up; it is then returned to the queue. */
  signal: AbortSignal;
  /** Enqueues another job outside any transaction (use `services.jobs.enqueue(trx, …)` inside one). */
  enqueue(name: string, payload: unknown, options?: EnqueueOptions): Promise<string>;
}

/** One kind of background job. `P` is the validated payload type. */
export interface JobDefinition<P = unknown> {
  /** Task identifier, `<module>.<verb>` (e.g. `mail.send`); unique across modules. */
  name: string;
  /** Validates the payload at enqueue time and again when the job runs (a mismatch then is a permanent failure). */
  payload: z.ZodType<P>;
  /** Default `{ kind: "backoff" }`. */
  retry?: RetryPolicy;
  /**
   * Jobs with the same queue name run one at a time across all instances (e.g. license sync): graphile-worker's
   * named queue, enforced by the queue's advisory lock (job-queue-lock.ts; a run finding it held is put off 2 s).
   */
  queueName?: string;
  /** Makes the job recurring (graphile-worker crontab). */
  schedule?: JobSchedule;
  /**
   * Periodic background work (health probes, pruning, every recurring job; default: true when `schedule` is set,
   * else false). It runs in the serial queue {@link BACKGROUND_QUEUE} at priority {@link BACKGROUND_PRIORITY}
   * (instead of `queueName` and the enqueue options' priority): at most one such job runs at a time across all
   * instances, and a ready user-facing job (import, deployment, webhook attempt, mail) is always fetched before
   * any ready background job, so user-facing work never queues behind it (operations.md "Background jobs").
   */
  background?: boolean;
  /** Does the work; a throw fails the attempt (see {@link RetryPolicy}, {@link PermanentJobError}). */
  handler(payload: P, ctx: JobContext): Promise<void>;
}

/** The serial graphile-worker queue of every {@link JobDefinition.background} job. */
export const BACKGROUND_QUEUE = "skiff-background";

/** graphile-worker priority of background jobs (user-facing jobs run at 0; lower runs first). */
export const BACKGROUND_PRIORITY = 100;

/** Whether `definition` is periodic background work (see {@link JobDefinition.background}). */
export function isBackground(definition: Pick<JobDefinition, "background" | "schedule">): boolean {
  return definition.background ?? definition.schedule !== undefined;
}

/** Declares a job; returns it unchanged, typed so the handler sees the schema's output type. */
export function defineJob<P>(definition: JobDefinition<P>): JobDefinition<P> {
  if (!/^[a-z][a-z0-9-]*(\.[a-z][a-z0-9-]*)+$/.test(definition.name)) {
    throw new Error(`Job name "${definition.name}" must look like <module>.<verb> (lower case, dots)`);
  }
  const retry = definition.retry;
  if (retry?.kind === "waits" && retry.waitsMs.some((w) => !Number.isFinite(w) || w < 0)) {
    throw new Error(`Job "${definition.name}": waitsMs must be non-negative milliseconds`);
  }
  return definition;
}

/**
 * Thrown by a handler (or by the runner for an invalid payload): this attempt fails and is never retried,
 * whatever the job's retry policy. The job stays in the queue as failed (`npm run skiff -- jobs`).
 */
export class PermanentJobError extends Error {
  override name = "PermanentJobError";
}

/**
 * Thrown by a handler before it did anything: this run is not an attempt (its attempt number and the last error are
 * kept, whatever the retry policy) and the job waits in the queue for `delayMs`, not holding a worker meanwhile
 * (e.g. a webhook endpoint already has its share of attempts in flight; it is woken when one ends). `ctx.deferrals`
 * counts these runs.
 */
export class DeferJobError extends Error {
  override name = "DeferJobError";
  /** Wait before the next run, ms. */
  readonly delayMs: number;
  /**
   * Called once the next run is queued (committed), with its job id: a handler that can tell when the wait is over
   * makes it due earlier with `JobQueue.runNow`.
   */
  readonly onQueued?: (jobId: string) => void;
  constructor(message: string, delayMs: number, onQueued?: (jobId: string) => void) {
    super(message);
    this.delayMs = delayMs;
    this.onQueued = onQueued;
  }
}

/**
 * Attempts a job of policy `retry` gets in graphile-worker. `waits` retries are separate jobs, each given a second
 * graphile-worker attempt only as a fallback: when its retry job cannot be queued (the database went away), the
 * attempt fails in graphile-worker instead, which runs it again once the failure is recorded (a delivery
 * attempt must not be lost to an outage). Its last attempt is made final by the runner.
 */
export function maxAttemptsOf(retry: RetryPolicy | undefined): number {
  if (!retry || retry.kind === "backoff") return retry?.maxAttempts ?? 25;
  return retry.kind === "waits" ? 2 : 1;
}
