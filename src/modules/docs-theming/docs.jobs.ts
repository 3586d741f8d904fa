/**
 * Job of the docs module: `docs.sync` reports this instance's docs hostnames to the docs host, one instance at a
 * time (a recurring job is background work, run in the kernel's serial background queue: src/jobs/job-definition.ts). It ticks every minute (the kernel's crontab; no waiting job is left in the
 * queue) and synchronises when SKIFF_LICENSE_SYNC_INTERVAL seconds have passed since the last synchronisation of
 * any instance on this database (`docs_sync_state`), with 30 s of slack for the tick's jitter: the interval is
 * thus honoured in whole minutes.
 */
import { z } from "zod";
import { defineJob } from "../../jobs/job-definition.ts";
import { syncWithDocsHost } from "./docs-sync.ts";

/** Job name of the synchronisation. */
export const DOCS_SYNC_JOB = "docs.sync";

/** Slack subtracted from the interval, so that a tick a few seconds early still synchronises. */
const SLACK_MS = 30_000;

/** `docs.sync { force }`: one synchronisation when the interval has passed (always with `force`). */
export const docsSyncJob = defineJob({
  name: DOCS_SYNC_JOB,
  payload: z.object({ force: z.boolean().default(false) }),
  retry: { kind: "none" },
  schedule: { cron: "* * * * *" },
  async handler({ force }, ctx) {
    const { services } = ctx;
    const now = services.now();
    const state = await services.knex("docs_sync_state").where({ id: 1 }).first("last_run_at");
    const last = state?.lastRunAt as Date | undefined;
    const due =
      !last || now.getTime() - last.getTime() >= services.config.SKIFF_LICENSE_SYNC_INTERVAL * 1000 - SLACK_MS;
    if (!force && !due) return;
    await services.knex("docs_sync_state").insert({ id: 1, last_run_at: now }).onConflict("id").merge(["last_run_at"]);
    try {
      const outcome = await syncWithDocsHost(services, ctx.log, ctx.signal);
      ctx.log.debug({ results: outcome.results.length, kind: outcome.kind }, "docs hostnames synchronised");
    } catch (error) {
      // A docs host that is down delays registration; the saved settings stay as they are.
      ctx.log.warn({ err: error }, "docs synchronisation failed; trying again at the next run");
    }
  },
});
