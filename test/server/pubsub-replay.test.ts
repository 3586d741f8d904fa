/**
 * Live events survive a lost LISTEN connection (src/shared/pubsub.ts): instance A listens through a
 * TCP proxy; the proxy cuts its connection while instance B publishes; once A is back it replays the logged
 * events it missed — each once, in order, none of those it had already seen again — and a rolled-back event is
 * neither delivered nor replayed. Old log rows are pruned.
 */
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
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

  it("keeps the log short: rows past the retention are pruned", async () => {
    await db.knex.raw(
      "insert into event_log (topic, payload, created_at) values ('old', '{}', now() - interval '1 hour')",
    );
    const { rows } = await db.knex.raw("select count(*)::int as n from event_log where topic = 'old'");
    expect(rows[0].n).toBe(1);
    // Every instance prunes at start and once a minute.
    const c = await createPubSub(db.url, db.knex, pino({ level: "silent" }));
    let left = 1;
    try {
      for (const by = Date.now() + 5000; left > 0 && Date.now() < by; ) {
        left = (await db.knex.raw("select count(*)::int as n from event_log where topic = 'old'")).rows[0].n;
        await new Promise((r) => setTimeout(r, 50));
      }
    } finally {
      await c.close();
    }
    expect(left).toBe(0);
    // Recent rows stay for replay.
    const recent = await db.knex.raw("select count(*)::int as n from event_log where topic = 'replay'");
    expect(recent.rows[0].n).toBe(7);
  });
});
