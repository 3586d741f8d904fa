/**
 * Jobs of the imports module. `imports.run` runs one import run: enqueued in the transaction
 * that creates (or retries) the pending record, so the record and its run commit together; a crash of Skiff or
 * PostgreSQL mid-run is retried (a database outage within the same attempt, once the database answers again; a
 * dead instance's job by the queue on any instance, freed by the job liveness sweep) and the run resumes where it
 * stopped (site-import.run.ts). `imports.expire-interrupted`
 * (every minute) ends the pending records whose run can no longer resume (no job left with attempts) as
 * partial or failed, with a message saying the import was interrupted. `imports.prune-idempotency-keys` (hourly)
 * deletes the expired idempotency keys.
 */
import type { Knex } from "knex";
import { z } from "zod";
import { defineJob } from "../../jobs/job-definition.ts";
import { JOB_SCHEMA, type JobQueue } from "../../jobs/job-queue.ts";
import { retryThroughOutage } from "../../shared/database-unavailable.ts";
import { recordSystemChange } from "../audit/index.ts";
import { type ServiceContext, systemContext } from "../context.ts";
import { publishSiteImportChange } from "./site-import.events.ts";
import { pruneIdempotencyKeys } from "./site-import.idempotency.ts";
import { IMPORT_STEPS, SiteImport } from "./site-import.model.ts";
import { finishRun, INTERRUPTED_MESSAGE, runImport } from "./site-import.run.ts";

/** Attempts of one import run (graphile-worker backoff: about 2.7 s, 7 s, 20 s, 55 s, 2.5 min between them). */
export const IMPORT_RUN_ATTEMPTS = 6;

/** The job key of record `importId`'s run (one queued run per record). */
export function importJobKey(importId: string): string {
  return `site-import:${importId}`;
}

/**
 * SQL condition on `site_imports`: the record is pending but its run can no longer resume — no job of it is
 * queued with attempts left or held by a runner (a dead runner's job counts until the liveness sweep frees it).
 */
export const ORPHANED_PENDING = `site_imports.status = 'pending' and not exists (
  select 1 from ${JOB_SCHEMA}.jobs j where j.key = 'site-import:' || site_imports.id
    and (j.attempts < j.max_attempts or j.locked_at is not null))`;

/**
 * How long one attempt keeps resuming its run through a database outage, ms: the attempt waits for the
 * database (1 s, 2 s, 4 s … at most 15 s apart) instead of failing, so the queue need not record a failure
 * while the database is away. Past it the run ends as interrupted (or, when even that cannot be written, the
 * attempt fails and the queue retries it).
 */
export const IMPORT_OUTAGE_WAIT_MS = 120_000;

/** `imports.run {importId, run}`: runs (or resumes) run `run` (the record's `attempts`) of an import. */
export const runSiteImportJob = defineJob({
  name: "imports.run",
  payload: z.object({ importId: z.string().min(1), run: z.number().int().min(1) }),
  retry: { kind: "backoff", maxAttempts: IMPORT_RUN_ATTEMPTS },
  async handler({ importId, run }, ctx) {
    await retryThroughOutage(
      ({ resumed, lastTry }) =>
        runImport(systemContext(ctx.services, ctx.log), importId, run, {
          resumed: resumed || ctx.attempt > 1,
          lastAttempt: ctx.attempt >= IMPORT_RUN_ATTEMPTS || lastTry,
        }),
      {
        signal: ctx.signal,
        maxWaitMs: IMPORT_OUTAGE_WAIT_MS,
        onOutage: (err, waitMs) =>
          ctx.log.warn({ err, importId, waitMs }, "site import interrupted by a database outage; resuming"),
      },
    );
  },
});

/**
 * Queues run `run` of `importId` on `trx` (the transaction that makes the record pending).
 * @returns the job id.
 */
export function enqueueImportRun(
  services: { jobs: JobQueue },
  trx: Knex.Transaction,
  importId: string,
  run: number,
): Promise<string> {
  return services.jobs.enqueue(trx, runSiteImportJob, { importId, run }, { jobKey: importJobKey(importId) });
}

/**
 * Ends every orphaned pending record ({@link ORPHANED_PENDING}): `partial` when a step was done, else `failed`,
 * at the first step not done, with {@link INTERRUPTED_MESSAGE}; records each in its organization's audit log and
 * publishes it. @returns how many were ended.
 */
export async function expireInterruptedImports(ctx: ServiceContext): Promise<number> {
  const rows = await SiteImport.query(ctx.knex).whereRaw(ORPHANED_PENDING).limit(100);
  let ended = 0;
  for (const row of rows) {
    const done = IMPORT_STEPS.filter((s) => row.steps[s] === "done");
    const step = IMPORT_STEPS.find((s) => row.steps[s] === "pending") ?? "deployment";
    // Ended and recorded in the organization's audit log (actor SYSTEM) in one transaction.
    const final = await ctx.knex.transaction(async (trx) => {
      const ended = await finishRun(trx, row.id, row.attempts, {
        status: done.length ? "partial" : "failed",
        errorStep: step,
        errorMessage: `${INTERRUPTED_MESSAGE} (stopped during ${step}); retry or delete the import`,
      });
      if (ended) {
        await recordSystemChange(trx, {
          organizationId: ended.organizationId,
          action: "system.site_import_interrupted",
          targetIds: [ended.id],
        });
      }
      return ended;
    });
    if (!final) continue;
    ended++;
    ctx.log.warn({ importId: row.id, step }, "ended an interrupted site import");
    await publishSiteImportChange(ctx, final);
  }
  return ended;
}

/** Every minute: {@link expireInterruptedImports}. */
export const expireInterruptedImportsJob = defineJob({
  name: "imports.expire-interrupted",
  payload: z.object({}),
  retry: { kind: "none" },
  schedule: { cron: "* * * * *" },
  async handler(_p, ctx) {
    await expireInterruptedImports(systemContext(ctx.services, ctx.log));
  },
});

/** Hourly: deletes the idempotency keys past SKIFF_IDEMPOTENCY_TTL_HOURS (an expired key is free even before). */
export const pruneIdempotencyKeysJob = defineJob({
  name: "imports.prune-idempotency-keys",
  payload: z.object({}),
  retry: { kind: "none" },
  schedule: { cron: "17 * * * *" },
  async handler(_p, ctx) {
    const pruned = await pruneIdempotencyKeys(ctx.services.knex);
    if (pruned > 0) ctx.log.info({ pruned }, "pruned expired idempotency keys");
  },
});
