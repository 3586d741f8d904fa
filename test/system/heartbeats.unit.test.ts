/**
 * `Subscription.heartbeat`'s stream (src/modules/system/system.resolvers.ts `heartbeats`): one event at once, then
 * one per interval; `return()` (the client unsubscribed or disconnected) ends a pending wait at once and the stream
 * stays ended.
 */
import { describe, expect, it } from "vitest";
import { heartbeats } from "../../src/modules/system/system.resolvers.ts";

describe("heartbeats", () => {
  it("answers the first at once and the next after the interval", async () => {
    const stream = heartbeats(0.05);
    const started = performance.now();
    expect(await stream.next()).toEqual({ value: { heartbeat: true }, done: false });
    expect(performance.now() - started).toBeLessThan(40);
    expect(await stream.next()).toEqual({ value: { heartbeat: true }, done: false });
    expect(performance.now() - started).toBeGreaterThanOrEqual(45);
    await stream.return?.();
  });

  it("ends a pending wait at once on return(), and stays ended", async () => {
    const stream = heartbeats(60);
    await stream.next();
    const pending = stream.next();
    const started = performance.now();
    await stream.return?.();
    expect(await pending).toEqual({ value: undefined, done: true });
    expect(performance.now() - started).toBeLessThan(1000);
    expect(await stream.next()).toEqual({ value: undefined, done: true });
  });
});
