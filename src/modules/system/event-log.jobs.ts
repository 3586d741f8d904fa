/**
 * `system.prune-event-log` (every minute, background): deletes live events older than
 * `SKIFF_EVENT_LOG_RETENTION_SECONDS` from `event_log` in batches, raising the horizon below which resume cursors
 * are expired (src/shared/event-log.ts).
 */
import { z } from "zod";
import { defineJob } from "../../jobs/job-definition.ts";
import { pruneEventLog } from "../../shared/event-log.ts";

/** The pruning job (one run per minute across all instances). */
export const pruneEventLogJob = defineJob({
  name: "system.prune-event-log",
  payload: z.object({}),
  retry: { kind: "none" },
  schedule: { cron: "* * * * *" },
  async handler(_payload, ctx) {
    const deleted = await pruneEventLog(
      ctx.services.knex,
      ctx.services.config.SKIFF_EVENT_LOG_RETENTION_SECONDS * 1000,
    );
    if (deleted) ctx.log.info({ deleted }, "event log pruned");
  },
});
