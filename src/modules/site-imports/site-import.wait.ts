/**
 * Waiting for the end of an import run: the run is a job (site-import.jobs.ts), possibly on
 * another instance; the request that started it waits for the record to leave `pending` — woken by the
 * `siteImport` pub/sub event, with a poll of the row every {@link POLL_MS} as a fallback — at most
 * `SKIFF_IMPORT_WAIT_MS`, and no later than the answer-by moment of a graceful shutdown (src/shared/shutdown.ts: the
 * request is answered while the server drains). Past either it returns the record as it is (still pending; the run
 * goes on, durably: on another instance, or on the next one started on the same database).
 */
import type { ServiceContext } from "../context.ts";
import { SITE_IMPORT_TOPIC } from "./site-import.events.ts";
import { SiteImport } from "./site-import.model.ts";

/** Fallback poll of the record while waiting, ms (events normally end the wait first). */
export const POLL_MS = 1000;

/**
 * Resolves with `record` once its run has ended (status no longer pending, or a newer run started), or with
 * the record as last read after `limitMs` or at the shutdown's answer-by moment, whichever comes first (then still
 * pending; at most {@link POLL_MS} old). Read failures while waiting are logged and retried at the next poll.
 */
export function waitForRunEnd(
  ctx: Pick<ServiceContext, "knex" | "services" | "log">,
  record: SiteImport,
  limitMs: number,
): Promise<SiteImport> {
  const { knex, log } = ctx;
  return new Promise((resolve) => {
    let settled = false;
    let latest = record;
    const ended = (row: SiteImport) => row.status !== "pending" || row.attempts !== record.attempts;
    const settle = () => {
      if (settled) return;
      settled = true;
      cancelDeadline();
      clearInterval(poll);
      unsubscribe();
      resolve(latest);
    };
    const check = async () => {
      try {
        const row = await SiteImport.query(knex).findById(record.id);
        if (settled || !row) return;
        latest = row;
        if (ended(row)) settle();
      } catch (err) {
        log.warn({ err, importId: record.id }, "could not read a site import while waiting for its run");
      }
    };
    const unsubscribe = ctx.services.pubsub.subscribe(SITE_IMPORT_TOPIC, (payload) => {
      if (payload.id === record.id && payload.status !== "pending") void check();
    });
    const poll = setInterval(() => void check(), POLL_MS);
    const cancelDeadline = ctx.services.shutdown.deadline(limitMs, settle);
    void check();
  });
}
