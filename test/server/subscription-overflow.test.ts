/**
 * A live event stream whose consumer falls more than its buffer behind ends with StreamOverflowError instead of
 * skipping events (docs/subscriptions.md "Order and cursors"): the events it still gave are in order and without a
 * gap, and a stream resumed after the last of them gets every later event. Real PostgreSQL LISTEN/NOTIFY.
 */
import { describe, expect, it } from "vitest";
import { eventStream, StreamOverflowError } from "../../src/shared/pubsub.ts";
import { until } from "../helpers/resume-subscriber.ts";
import { useTestServer } from "../helpers/server.ts";

const t = useTestServer();
const TOPIC = "test.overflow";

describe("a subscriber too far behind", () => {
  it("ends its stream with StreamOverflowError, and a resume after its last event misses nothing", async () => {
    const pubsub = t.skiff.services.pubsub;
    let accepted = 0;
    const stream = eventStream(
      pubsub,
      TOPIC,
      (payload, meta) => {
        accepted++;
        return { n: Number(payload.n), seq: meta.seq! };
      },
      { maxQueued: 5 },
    );
    const first = stream.next();
    for (let n = 0; n < 12; n++) await pubsub.publish(TOPIC, { n });
    const got = [(await first).value as { n: number; seq: number }];
    // The consumer stops taking: past 5 waiting events the stream ends rather than drop one.
    await until(() => accepted >= 7);
    await expect(stream.next()).rejects.toBeInstanceOf(StreamOverflowError);
    expect(pubsub.listenerCount(TOPIC)).toBe(0);
    // Resumed after the last event given: every later one, in order.
    const resumed = eventStream(pubsub, TOPIC, (payload, meta) => ({ n: Number(payload.n), seq: meta.seq! }), {
      after: got.at(-1)!.seq,
    });
    await resumed.replayed;
    for (let i = 0; i < 11; i++) got.push((await resumed.next()).value as { n: number; seq: number });
    await resumed.return?.();
    expect(got.map((g) => g.n)).toEqual(Array.from({ length: 12 }, (_, n) => n));
  }, 30_000);

  it("gives a consumer waiting for its next event that event when a burst larger than the buffer arrives at once", async () => {
    const pubsub = t.skiff.services.pubsub;
    const topic = `${TOPIC}.burst`;
    const stream = eventStream(pubsub, topic, async (payload) => ({ n: Number(payload.n) }), { maxQueued: 5 });
    const first = stream.next();
    // Twelve events committed together reach the listener in one read, before the first one is accepted: the
    // waiting consumer is not behind, so it gets the first; it is behind once it leaves more than 5 untaken.
    await t.db.knex.transaction(async (trx) => {
      for (let n = 0; n < 12; n++) await pubsub.publish(topic, { n }, trx);
    });
    expect((await first).value).toEqual({ n: 0 });
    await until(() => pubsub.listenerCount(topic) === 0);
    await expect(stream.next()).rejects.toBeInstanceOf(StreamOverflowError);
  }, 30_000);
});
