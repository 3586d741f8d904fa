/**
 * Live events survive a lost LISTEN connection (src/shared/pubsub.ts): instance A listens through a
 * TCP proxy; the proxy cuts its connection while instance B publishes; once A is back it replays the logged
 * events it missed — each once, in order, none of those it had already seen again — and a rolled-back event is
 * neither delivered nor replayed; live events that come while the replay runs are handed out after it, in order (a
 * subscriber's cursor never passes an event it has yet to receive). Rows past the retention are pruned in batches.
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

  it("hands out the live events that come during its replay after the replayed ones, in order", async () => {
    // C's replay statement waits until released, while live events reach its new LISTEN connection.
    const second = tcpProxy(db.url);
    await second.open();
    let slow = false;
    let replayStarted: () => void = () => {};
    const started = new Promise<void>((resolve) => (replayStarted = resolve));
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    const knex = new Proxy(db.knex, {
      get(target, key, receiver) {
        const value = Reflect.get(target, key, receiver);
        if (key !== "raw") return value;
        return (sql: string, bindings?: unknown) => {
          if (!slow || !sql.includes("where seq > ?")) return target.raw(sql, bindings as never);
          replayStarted();
          return released.then(() => target.raw(sql, bindings as never));
        };
      },
    });
    const c = await createPubSub(second.url(db.url), knex, pino({ level: "silent" }));
    try {
      const atC: number[] = [];
      c.subscribe("order", (p) => void atC.push(p.n as number));
      await b.publish("order", { n: 1 });
      await until(() => atC.length === 1);

      await second.close();
      for (let n = 2; n <= 5; n++) await b.publish("order", { n });
      slow = true;
      await second.open();
      await started; // C listens again; its replay waits
      for (let n = 6; n <= 8; n++) await b.publish("order", { n });
      await new Promise((r) => setTimeout(r, 200)); // the live events reach C's connection
      release();
      await until(() => atC.length >= 8);
      await new Promise((r) => setTimeout(r, 200));
      expect(atC).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    } finally {
      await c.close();
      await second.close();
    }
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
