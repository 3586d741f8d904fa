/**
 * Resume cursors under out-of-order commits (docs/subscriptions.md "Order and cursors"): transactions that publish
 * live events commit in another order than they published; a client that is cut and resumes with its last cursor
 * while some of them are still open gets every event once — the one of a transaction that published first but
 * commits after the client's cursor included, and those committing while the resumed subscription replays.
 * Real PostgreSQL transactions, a real server and WebSockets.
 */
import type { Knex } from "knex";
import { describe, expect, it } from "vitest";
import { SITE_IMPORT_TOPIC } from "../../src/modules/site-imports/site-import.events.ts";
import { ledger, publishImport, subscribeImports, until } from "../helpers/resume-subscriber.ts";
import { createOrg } from "../helpers/seed.ts";
import { useTestServer } from "../helpers/server.ts";

const t = useTestServer();

describe("cursors under out-of-order commits", () => {
  it("replays an event whose transaction published first and committed after the cursor was handed out", async () => {
    const pubsub = t.skiff.services.pubsub;
    const { organizationId, owner } = await createOrg(t.db.knex);
    const first = await subscribeImports(t.skiff.url, owner.apiKey, null, pubsub);
    // Published first (its row is written first), committed last.
    const early = await t.db.knex.transaction();
    await publishImport(pubsub, "imp_early", organizationId, null, early);
    const late = await t.db.knex.transaction();
    await publishImport(pubsub, "imp_late", organizationId, null, late);
    await late.commit();
    await until(() => first.got.length === 1);
    expect(first.got[0]!.importId).toBe("imp_late");
    first.cut();
    // The server has let the cut subscription go (subscribeImports counts listeners to know the next one listens).
    await until(() => pubsub.listenerCount(SITE_IMPORT_TOPIC) === 0);
    await early.commit();
    const second = await subscribeImports(t.skiff.url, owner.apiKey, first.got[0]!.cursor, pubsub);
    await until(() => second.got.length >= 1);
    await new Promise((r) => setTimeout(r, 200));
    expect(second.error).toBeUndefined();
    expect(second.got.map((g) => g.importId)).toEqual(["imp_early"]);
    await second.close();
  }, 30_000);

  it("0 gaps and 0 duplicates over rounds of concurrent transactions committing in shuffled order while the client resumes", async () => {
    const pubsub = t.skiff.services.pubsub;
    const { organizationId, owner } = await createOrg(t.db.knex);
    const expected: string[] = [];
    const ids: string[] = [];
    let sub = await subscribeImports(t.skiff.url, owner.apiKey, null, pubsub);
    let cursor: string | null = null;
    const rounds = 25;
    for (let round = 0; round < rounds; round++) {
      // Four open transactions, each publishing one event, committed in a shuffled order with short pauses; the
      // client is cut and resumes (with its last cursor) at a random point among the commits.
      const open: Array<{ trx: Knex.Transaction; id: string }> = [];
      for (let k = 0; k < 4; k++) {
        const trx = await t.db.knex.transaction();
        const id = `imp_r${round}_${k}`;
        await publishImport(pubsub, id, organizationId, null, trx);
        open.push({ trx, id });
        expected.push(id);
      }
      open.sort(() => Math.random() - 0.5);
      const cutAfter = Math.floor(Math.random() * open.length);
      for (const [i, { trx }] of open.entries()) {
        await trx.commit();
        await new Promise((r) => setTimeout(r, Math.random() * 6));
        if (i === cutAfter) {
          // What the first connection got so far, then the cut; resume from its last cursor while commits go on.
          await new Promise((r) => setTimeout(r, Math.random() * 4));
          // A client that never got a cursor has nothing to resume from (it would start live): the first cut waits
          // for the first connection's first event, committed above.
          if (cursor === null) await until(() => sub.got.length > 0);
          sub.cut();
          await until(() => sub.closed && pubsub.listenerCount(SITE_IMPORT_TOPIC) === 0);
          ids.push(...sub.got.map((g) => g.importId));
          cursor = sub.got.at(-1)?.cursor ?? cursor;
          const resuming = subscribeImports(t.skiff.url, owner.apiKey, cursor, pubsub);
          if (Math.random() < 0.5) sub = await resuming;
          else {
            // Commit the next one while the resumed subscription replays (the seam).
            const next = open[i + 1];
            if (next) {
              await next.trx.commit();
              open.splice(i + 1, 1);
            }
            sub = await resuming;
          }
        }
      }
    }
    await until(() => ids.length + sub.got.length >= expected.length, 10_000).catch(() => {});
    await new Promise((r) => setTimeout(r, 300));
    expect(sub.error).toBeUndefined();
    ids.push(...sub.got.map((g) => g.importId));
    const result = ledger(ids, expected);
    console.info(
      `out-of-order commits: ${expected.length} events over ${rounds} resumes, ${result.gaps.length} gaps, ${result.duplicates.length} duplicates`,
    );
    expect(result).toEqual({ gaps: [], duplicates: [], foreign: [] });
    await sub.close();
  }, 120_000);
});
