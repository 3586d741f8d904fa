/**
 * The per-endpoint window of webhook attempts (src/modules/webhooks/webhook-endpoint-slots.ts, docs/webhooks.md
 * "Isolation of slow receivers"): an endpoint starts with 2 attempts at once, gains one per quick answer up to the
 * cap, and an attempt in flight for a second narrows it to one, with put-off attempts told to come back when a slot
 * can free. Real clock; no database (the instance is a plain object key).
 */
import type { Knex } from "knex";
import { describe, expect, it } from "vitest";
import type { AppServices } from "../../src/modules/services.ts";
import { type EndpointSlot, takeEndpointSlot } from "../../src/modules/webhooks/webhook-endpoint-slots.ts";

const BUDGET = 10_000;

/** A fresh instance whose cap is `cap` attempts per endpoint. */
function instance(cap: number) {
  const services = {
    knex: {} as Knex,
    config: { SKIFF_WEBHOOK_ENDPOINT_CONCURRENCY: cap, SKIFF_WORKER_CONCURRENCY: 50 } as AppServices["config"],
  };
  return (endpoint: string, deferrals = 0): EndpointSlot => takeEndpointSlot(services, endpoint, BUDGET, deferrals);
}

const taken = (slot: EndpointSlot) => {
  if (!("giveBack" in slot)) throw new Error(`expected a slot, got a wait of ${slot.retryInMs} ms`);
  return slot;
};
const waitOf = (slot: EndpointSlot) => {
  if (!("retryInMs" in slot)) throw new Error("expected a wait, got a slot");
  return slot.retryInMs;
};

describe("the window of attempts to one endpoint", () => {
  it("starts at 2 and grows by one with each quick answer, up to the cap", () => {
    const take = instance(4);
    const first = taken(take("e"));
    taken(take("e"));
    expect(waitOf(take("e"))).toBeLessThanOrEqual(100);
    first.giveBack(); // quick: window 3, one in flight
    const a = taken(take("e"));
    taken(take("e"));
    // Growing and quick: put-off attempts come back within 25 ms.
    expect(waitOf(take("e"))).toBeLessThanOrEqual(25);
    a.giveBack(); // window 4 (the cap)
    taken(take("e"));
    taken(take("e"));
    // At the cap: 100 ms doubling with the deferrals, ×0.5–1.
    const atCap = waitOf(take("e", 3));
    expect(atCap).toBeGreaterThanOrEqual(400);
    expect(atCap).toBeLessThanOrEqual(800);
    // Another endpoint has its own window.
    taken(take("other"));
  });

  it("holds one attempt of a receiver that does not answer, and sends the rest back until a slot can free", async () => {
    const take = instance(12);
    taken(take("hung"));
    taken(take("hung"));
    expect(waitOf(take("hung"))).toBeLessThanOrEqual(100);
    await new Promise((r) => setTimeout(r, 300));
    // Not answered in 250 ms and never seen answering quickly: back once the attempt has run a second.
    const untilKnown = waitOf(take("hung"));
    expect(untilKnown).toBeGreaterThan(500);
    expect(untilKnown).toBeLessThanOrEqual(800);
    await new Promise((r) => setTimeout(r, 800));
    // Known slow: the window is one, and the rest wait until the oldest attempt's budget ends.
    const untilFree = waitOf(take("hung"));
    expect(untilFree).toBeGreaterThan(BUDGET - 1200);
    expect(untilFree).toBeLessThanOrEqual((BUDGET - 1000) * 1.1);
    // Healthy endpoints of the same instance are not held back.
    taken(take("healthy"));
    taken(take("healthy"));
  });
});
