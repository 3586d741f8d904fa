/**
 * The LISTEN/NOTIFY pub/sub (src/server/pubsub.ts): events reach every instance's subscribers of the topic,
 * oversized payloads are refused, unsubscribing stops delivery, and a killed LISTEN connection reconnects.
 */
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPubSub, type PubSub } from "../../src/shared/pubsub.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";

let db: TestDatabase;
let one: PubSub;
let two: PubSub;
beforeAll(async () => {
  db = await createTestDatabase();
  const log = pino({ level: "silent" });
  [one, two] = await Promise.all([createPubSub(db.url, db.knex, log), createPubSub(db.url, db.knex, log)]);
});
afterAll(async () => {
  await Promise.all([one?.close(), two?.close()]);
  await db?.drop();
});

/** Resolves with the first payload `pubsub` delivers on `topic` (rejects after 5 s). */
function next(pubsub: PubSub, topic: string): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("no event")), 5000);
    const off = pubsub.subscribe(topic, (payload) => {
      clearTimeout(timer);
      off();
      resolve(payload);
    });
  });
}

describe("pubsub", () => {
  it("delivers a published event to the subscribers of its topic on every instance", async () => {
    const atOne = next(one, "t1");
    const atTwo = next(two, "t1");
    let other = 0;
    const off = two.subscribe("t2", () => other++);
    await one.publish("t1", { id: "x", status: "pending" });
    expect(await atOne).toEqual({ id: "x", status: "pending" });
    expect(await atTwo).toEqual({ id: "x", status: "pending" });
    expect(other).toBe(0);
    off();
    expect(two.listenerCount("t2")).toBe(0);
  });

  it("hands a routed handler only the events whose payload field matches, and one payload object to all", async () => {
    const got: Array<[string, Record<string, unknown>]> = [];
    const offA = two.subscribe("t4", (p) => got.push(["a", p]), { field: "organizationId", value: "org_a" });
    const offB = two.subscribe("t4", (p) => got.push(["b", p]), { field: "organizationId", value: "org_b" });
    const offAll = two.subscribe("t4", (p) => got.push(["all", p]));
    const offId = two.subscribe("t4", (p) => got.push(["id", p]), { field: "id", value: "imp_1" });
    expect(two.listenerCount("t4")).toBe(4);
    const last = next(two, "t4");
    await one.publish("t4", { id: "imp_1", organizationId: "org_a" });
    await one.publish("t4", { id: "imp_2", organizationId: "org_c" });
    expect(await last).toEqual({ id: "imp_1", organizationId: "org_a" });
    await new Promise((r) => setTimeout(r, 200));
    expect(got.map(([who, p]) => `${who}:${p.id}`).sort()).toEqual(["a:imp_1", "all:imp_1", "all:imp_2", "id:imp_1"]);
    const firstEvent = got.filter(([, p]) => p.id === "imp_1").map(([, p]) => p);
    expect(new Set(firstEvent).size).toBe(1); // the same object: per-event work can be keyed on it
    for (const off of [offA, offB, offAll, offId]) off();
    offA();
    expect(two.listenerCount("t4")).toBe(0);
  });

  it("refuses payloads over the NOTIFY limit", async () => {
    await expect(one.publish("t1", { big: "x".repeat(8000) })).rejects.toThrow(/exceeds/);
  });

  it("reconnects its LISTEN connection after the server drops it", async () => {
    const killed = await db.knex.raw(
      "select pg_terminate_backend(pid) as ok from pg_stat_activity where datname = current_database() and query like 'listen %'",
    );
    expect(killed.rows).toEqual([{ ok: true }, { ok: true }]);
    // The next event after the reconnection arrives; publish until one does.
    const received = next(two, "t3");
    let got: Record<string, unknown> | undefined;
    received.then((p) => {
      got = p;
    });
    for (let i = 0; i < 100 && !got; i++) {
      await one.publish("t3", { attempt: i });
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(got).toMatchObject({ attempt: expect.any(Number) });
  });
});
