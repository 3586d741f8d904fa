/**
 * Sign-in limits shared across instances: two `src/main.ts` processes under NODE_ENV=production (where
 * better-auth's own request limiter is on: 3 sign-in attempts per 10 s per address) on one database. Attempts
 * alternate between them; the limit holds in total, not per instance, because the counter lives in PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { type SkiffProcess, spawnSkiff } from "../helpers/process.ts";
import { createUser, setPassword } from "../helpers/seed.ts";
import { TEST_PASSWORD } from "../helpers/session.ts";

const ORIGIN = "http://skiff.test";

/** POSTs a sign-in to `url` as the dashboard at {@link ORIGIN} does. */
function signInAt(url: string, email: string, password: string): Promise<Response> {
  return fetch(`${url}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: ORIGIN },
    body: JSON.stringify({ email, password }),
  });
}

let db: TestDatabase;
const instances: Array<{ process: SkiffProcess; url: string }> = [];

beforeAll(async () => {
  db = await createTestDatabase();
  for (let i = 0; i < 2; i++) {
    const process = spawnSkiff({
      DATABASE_URL: db.url,
      NODE_ENV: "production",
      // Production requires a trusted Origin on sign-in (better-auth's CSRF check): this one.
      SKIFF_BASE_URL: ORIGIN,
      SKIFF_BOOTSTRAP: "false",
      SKIFF_WORKER: "false",
      SKIFF_DB_POOL_MAX: "4",
      SKIFF_AUTH_POOL_MAX: "3",
    });
    const listening = await process.waitForLog((r) => String(r.msg).startsWith("Server listening at"), 60_000);
    instances.push({ process, url: String(listening.msg).replace("Server listening at ", "") });
  }
}, 120_000);
afterAll(async () => {
  for (const { process } of instances) {
    if (process.child.exitCode === null && process.child.signalCode === null) {
      process.child.kill("SIGTERM");
      await process.exited;
    }
  }
  await db?.drop();
});

describe("better-auth's sign-in limit across two instances", () => {
  it("allows 3 attempts in 10 s in total, whichever instance answers", async () => {
    const user = await createUser(db.knex);
    await setPassword(db.knex, user.userId, TEST_PASSWORD);
    const statuses: number[] = [];
    const started = Date.now();
    for (let i = 0; i < 6; i++) {
      const { url } = instances[i % 2]!;
      const res = await signInAt(url, user.email, `wrong-${i}-password`);
      statuses.push(res.status);
      if (res.status === 429) expect(Number(res.headers.get("x-retry-after"))).toBeGreaterThan(0);
    }
    // Per-process counters would have allowed 3 on each instance: six 401s.
    expect(statuses).toEqual([401, 401, 401, 429, 429, 429]);
    // Even the right password waits for the window, on the other instance too.
    const right = await signInAt(instances[1]!.url, user.email, TEST_PASSWORD);
    expect(right.status).toBe(429);
    expect(Date.now() - started).toBeLessThan(10_000);
    const { rows } = await db.knex.raw(
      "select count(*)::int as n from auth_attempt_limits where key like 'auth-request:%'",
    );
    expect(rows[0].n).toBeGreaterThan(0);
  });
});
