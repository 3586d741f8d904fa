/**
 * The deadlines of waits inside requests (src/shared/shutdown.ts): a wait ends at its own limit, or earlier at the
 * shutdown's answer-by moment — pending waits are moved there when the shutdown begins, and waits started after
 * it never run past it.
 */
import { describe, expect, it } from "vitest";
import { createShutdown } from "../../src/shared/shutdown.ts";

/** Resolves with the ms elapsed until the wait `register` sets up ends. */
function timed(register: (onEnd: () => void) => void): Promise<number> {
  const start = Date.now();
  return new Promise((resolve) => register(() => resolve(Date.now() - start)));
}

describe("shutdown deadlines", () => {
  it("ends a wait at its own limit while no shutdown has begun", async () => {
    const shutdown = createShutdown();
    expect(shutdown.begun).toBe(false);
    const elapsed = await timed((onEnd) => shutdown.deadline(80, onEnd));
    expect(elapsed).toBeGreaterThanOrEqual(75);
  });

  it("moves a pending wait to the answer-by moment when the shutdown begins", async () => {
    const shutdown = createShutdown();
    const long = timed((onEnd) => shutdown.deadline(60_000, onEnd));
    shutdown.begin(Date.now() + 50);
    expect(shutdown.begun).toBe(true);
    const elapsed = await long;
    expect(elapsed).toBeGreaterThanOrEqual(45);
    expect(elapsed).toBeLessThan(5000);
  });

  it("keeps a shorter limit, and ends a wait started past the answer-by moment at once", async () => {
    const shutdown = createShutdown();
    const short = timed((onEnd) => shutdown.deadline(30, onEnd));
    shutdown.begin(Date.now() + 60_000);
    expect(await short).toBeLessThan(5000);
    shutdown.begin(Date.now() - 1); // an earlier moment wins
    expect(await timed((onEnd) => shutdown.deadline(60_000, onEnd))).toBeLessThan(1000);
  });

  it("never calls a cancelled wait", async () => {
    const shutdown = createShutdown();
    let called = false;
    const cancel = shutdown.deadline(20, () => {
      called = true;
    });
    cancel();
    shutdown.begin(Date.now());
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(called).toBe(false);
  });
});
