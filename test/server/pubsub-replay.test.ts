/**
 * Live events survive a lost LISTEN connection (src/shared/pubsub.ts): instance A listens through a
 * TCP proxy; the proxy cuts its connection while instance B publishes; once A is back it replays the logged
 * events it missed — each once, in order, none of those it had already seen again — and a rolled-back event is
 * neither delivered nor replayed. Rows past the retention are pruned in batches.
 */
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pruneEventLog } from "../../src/shared/event-log.ts";
import { createPubSub, type PubSub } from "../../src/shared/pubsub.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { type TcpProxy, tcpProxy } from "../helpers/tcp-proxy.ts";

let db: TestDatabase;
let proxy: TcpProxy;
let a: PubSub;
let b: PubSub;
beforeAll(async () => {
  db = await createTestDatabase();
  proxy = tcpProxy(db.url);
  await proxy.open();
  const log = pino({ level: "silent" });
  a = await createPubSub(proxy.url(db.url), db.knex, log);
  b = await createPubSub(db.url, db.knex, log);
});
afterAll(async () => {
  await Promise.all([a?.close(), b?.close()]);
  await proxy?.close();
  await db?.drop();
});

const until = async (check: () => boolean, ms = 10_000) => {
  for (const by = Date.now() + ms; !check() && Date.now() < by; ) await new Promise((r) => setTimeout(r, 25));
};

describe("pubsub replay", () => {
  it("replays the events published while the LISTEN connection was down, each once", async () => {
    const atA: number[] = [];
    const atB: number[] = [];
    a.subscribe("replay", (p) => void atA.push(p.n as number));
    b.subscribe("replay", (p) => void atB.push(p.n as number));
    await b.publish("replay", { n: 1 });
    await until(() => atA.length === 1);
    expect(atA).toEqual([1]);

    await proxy.close(); // A's LISTEN connection is cut; it retries while the proxy refuses
    for (let n = 2; n <= 6; n++) await b.publish("replay", { n });
    await db.knex
      .transaction(async (trx) => {
        await b.publish("replay", { n: 99 }, trx);
        throw new Error("rolled back");
      })
      .catch(() => {});
    await until(() => atB.length === 6);
    expect(atB).toEqual([1, 2, 3, 4, 5, 6]);
    expect(atA).toEqual([1]);

    await proxy.open();
    await until(() => atA.length >= 6);
    await b.publish("replay", { n: 7 });
    await until(() => atA.length >= 7);
    await new Promise((r) => setTimeout(r, 300));
    expect(atA).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(atB).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it("prunes rows past the retention in batches (the job's function), raising the horizon", async () => {
    await db.knex.raw(
      "insert into event_log (topic, payload, created_at) select 'old', '{}', now() - interval '2 days' from generate_series(1, 5200)",
    );
    const { rows } = await db.knex.raw(
      "select count(*)::int as n, max(seq)::int as top from event_log where topic = 'old'",
    );
    expect(rows[0].n).toBe(5200);
    // 24 hours: 5,000 rows per statement, so two statements here.
    expect(await pruneEventLog(db.knex, 24 * 3600 * 1000)).toBe(5200);
    const left = (await db.knex.raw("select count(*)::int as n from event_log where topic = 'old'")).rows[0].n;
    expect(left).toBe(0);
    const horizon = (await db.knex.raw("select seq::int as seq from event_log_horizon")).rows[0].seq;
    expect(horizon).toBe(rows[0].top);
    // Recent rows stay for replay.
    const recent = await db.knex.raw("select count(*)::int as n from event_log where topic = 'replay'");
    expect(recent.rows[0].n).toBe(7);
  });
});
