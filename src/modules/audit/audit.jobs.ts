/**
 * `audit.prune` (hourly): deletes audit entries older than SKIFF_AUDIT_RETENTION_DAYS days, in batches (each a short
 * statement, so a large backlog never holds one long lock).
 */
import type { Knex } from "knex";
import { z } from "zod";
import { defineJob } from "../../jobs/job-definition.ts";

/** Entries deleted per statement. */
const BATCH = 5000;

/** `audit.prune`: the retention of the audit log. */
export const pruneAuditEventsJob = defineJob({
  name: "audit.prune",
  payload: z.object({}),
  retry: { kind: "none" },
  schedule: { cron: "17 * * * *" },
  async handler(_payload, ctx) {
    const deleted = await pruneAuditEvents(ctx.services.knex, ctx.services.config.SKIFF_AUDIT_RETENTION_DAYS);
    if (deleted) ctx.log.info({ deleted }, "audit log pruned");
  },
});

/** Deletes entries that occurred more than `days` days ago. @returns how many were deleted. */
export async function pruneAuditEvents(knex: Knex, days: number): Promise<number> {
  let total = 0;
  for (;;) {
    const { rowCount } = await knex.raw(
      `delete from audit_events where id in (
         select id from audit_events where occurred_at < now() - make_interval(days => ?) limit ?)`,
      [days, BATCH],
    );
    total += rowCount ?? 0;
    if ((rowCount ?? 0) < BATCH) return total;
  }
}
