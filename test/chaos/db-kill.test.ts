/**
 * In the suite: `kill -9` of the real PostgreSQL postmaster under load (site imports with their deployment
 * jobs, webhook deliveries, an open subscription), once per variant — Skiff's embedded cluster (its supervisor
 * restarts it) and a DATABASE_URL server the test runs itself (restarted after 2 s). Each run must keep the Skiff
 * process alive, answer /readyz 503 during the outage and 200 soon after it, leave no import pending, log
 * every webhook attempt once with none lost, resume the subscription, answer a signed-in reader (session cookie) 200
 * or 503 and nothing else, let a user sign in, and stop on one SIGTERM
 * within SKIFF_SHUTDOWN_TIMEOUT + 5 s. `npm run chaos:db` repeats these (and longer outages) many times, on a machine
 * of its own, where `/readyz` must answer 200 within 5 s of recovery; here, beside the rest of the suite, within 15 s.
 */
import { describe, expect, inject, it } from "vitest";
import { runChaos } from "./db-chaos.ts";

/** Longest wait for `/readyz` 200 after recovery, ms, in the suite (see ChaosOptions.readyWithinMs). */
const READY_WITHIN_MS = 15_000;

describe("PostgreSQL killed under load", () => {
  for (const variant of ["embedded", "url"] as const) {
    it(`${variant}: Skiff survives, recovers, loses nothing and stops in bounded time`, async () => {
      const result = await runChaos({
        variant,
        outageMs: 2000,
        tls: inject("testTls"),
        importsPerSecond: 10,
        // Three other test files share the two cores here: the 5 s goal is `npm run chaos:db`'s.
        readyWithinMs: READY_WITHIN_MS,
        progress: (line) => console.info(`chaos ${variant}: ${line}`),
      });
      console.info(`chaos ${variant}`, JSON.stringify({ ...result, crashLines: undefined }));
      expect(result.problems).toEqual([]);
      expect(result.died).toBeNull();
      expect(result.readyDuringOutage.unavailable).toBeGreaterThan(0);
      expect(result.readyAfterMs).not.toBeNull();
      expect(result.readyAfterMs!).toBeLessThanOrEqual(READY_WITHIN_MS);
      expect(result.pending).toBe(0);
      expect(result.webhooks.accepted).toBeGreaterThan(0);
      expect(result.webhooks.lost).toBe(0);
      expect(result.webhooks.doubled).toBe(0);
      expect(result.webhooks.attemptsLogged).toBe(result.webhooks.attemptsSeen);
      expect(result.subscriptionResumed).toBe(true);
      expect(result.signIn).toBe(true);
      expect(result.sessionReads.ok).toBeGreaterThan(0);
      expect(result.sessionReads.other).toEqual({});
      expect(result.sessionReads.okAfter).toBe(true);
      expect(result.shutdown?.code).toBe(0);
    }, 180_000);
  }
});
