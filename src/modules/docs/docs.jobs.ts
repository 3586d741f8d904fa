/**
 * Job of the docs module: `docs.sync` reports this instance's docs hostnames to the docs host every
 * SKIFF_LICENSE_SYNC_INTERVAL seconds, one instance at a time (queue `docs-license-sync`). Each run schedules the
 * next one (job key `docs.sync`: at most one waiting); a crontab tick every minute restarts the chain if it
 * was lost (its `preserve_run_at` keeps a waiting run's time).
 */
import { z } from "zod";
import { defineJob } from "../../jobs/job-definition.ts";
import { syncWithDocsHost } from "./docs-sync.ts";

/** Job name, job key and queue of the synchronisation. */
export const DOCS_SYNC_JOB = "docs.sync";

/** `docs.sync {}`: one synchronisation, then the next one in SKIFF_LICENSE_SYNC_INTERVAL seconds. */
export const docsSyncJob = defineJob({
  name: DOCS_SYNC_JOB,
  payload: z.object({ tick: z.boolean().default(false) }),
  retry: { kind: "none" },
  queueName: "docs-license-sync",
  schedule: { cron: "* * * * *", payload: { tick: true } },
  async handler({ tick }, ctx) {
    const { services } = ctx;
    if (tick) {
      // The crontab only (re)starts the chain: a waiting run keeps its time.
      await ctx.enqueue(DOCS_SYNC_JOB, {}, { jobKey: DOCS_SYNC_JOB, jobKeyMode: "preserve_run_at" });
      return;
    }
    try {
      const outcome = await syncWithDocsHost(services, ctx.log, ctx.signal);
      ctx.log.debug({ results: outcome.results.length, kind: outcome.kind }, "docs hostnames synchronised");
    } catch (error) {
      // A docs host that is down delays registration; the saved settings stay as they are.
      ctx.log.warn({ err: error }, "docs synchronisation failed; trying again at the next run");
    } finally {
      const runAt = new Date(services.now().getTime() + services.config.SKIFF_LICENSE_SYNC_INTERVAL * 1000);
      await ctx.enqueue(DOCS_SYNC_JOB, {}, { runAt, jobKey: DOCS_SYNC_JOB, jobKeyMode: "replace" });
    }
  },
});
