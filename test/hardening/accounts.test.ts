/**
 * Over real HTTP: sign-in attempts are limited per account (even with NODE_ENV unset, the
 * right password is refused after the limit) and per address (X-Forwarded-For ignored without SKIFF_TRUST_PROXY),
 * counted in PostgreSQL; changing the password ends the account's other sessions.
 */
import { describe, expect, it } from "vitest";
import { ATTEMPT_RULES } from "../../src/auth/attempt-limits.ts";
import { createOrg, createUser, setPassword } from "../helpers/seed.ts";
import { gql, useTestServer } from "../helpers/server.ts";
import { postAuth, signIn, TEST_PASSWORD } from "../helpers/session.ts";

const t = useTestServer();
const signInRule = ATTEMPT_RULES.find((r) => r.name === "sign-in")!;

/** POSTs a sign-in with an optional X-Forwarded-For. */
function attempt(email: string, password: string, forwardedFor?: string) {
  return fetch(`${t.skiff.url}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(forwardedFor ? { "x-forwarded-for": forwardedFor } : {}) },
    body: JSON.stringify({ email, password }),
  });
}

describe("sign-in attempt limits", () => {
  it("lock the account after the limit, even for the right password and across rotating addresses", async () => {
    expect(process.env.NODE_ENV).not.toBe("production");
    const user = await createUser(t.db.knex);
    await setPassword(t.db.knex, user.userId, TEST_PASSWORD);
    const statuses: number[] = [];
    for (let i = 0; i < signInRule.perAccount; i++) {
      statuses.push((await attempt(user.email, `wrong-password-${i}`, `10.0.0.${i + 1}`)).status);
    }
    expect(statuses.every((s) => s === 401)).toBe(true);
    const right = await attempt(user.email, TEST_PASSWORD, "10.0.1.1");
    expect(right.status).toBe(429);
    expect(Number(right.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(((await right.json()) as { code: string }).code).toBe("TOO_MANY_ATTEMPTS");
    // Stored in PostgreSQL: another instance on the same database shares the counter.
    const rows = await t.db.knex("auth_attempt_limits").where("key", "like", "sign-in:account:%");
    expect(rows.length).toBeGreaterThan(0);
  });

  it("limit per address: X-Forwarded-For is ignored without SKIFF_TRUST_PROXY", async () => {
    // Fill the loopback address's budget with distinct accounts (each below its own account limit).
    const remaining = signInRule.perAddress;
    let lastStatus = 0;
    for (let i = 0; i < remaining + 5 && lastStatus !== 429; i++) {
      lastStatus = (await attempt(`nobody-${i}@example.test`, "wrong-password", `192.0.2.${(i % 250) + 1}`)).status;
    }
    expect(lastStatus).toBe(429);
  });
});

describe("password change", () => {
  it("ends the account's other sessions", async () => {
    const org = await createOrg(t.db.knex);
    await t.db.knex("auth_attempt_limits").delete();
    await setPassword(t.db.knex, org.owner.userId, TEST_PASSWORD);
    const stolen = await signIn(t.skiff.url, org.owner.email);
    const mine = await signIn(t.skiff.url, org.owner.email);
    const viewer = "{ viewer { user { email } } }";
    expect((await gql(t.skiff.url, viewer, {}, { cookie: stolen })).status).toBe(200);
    const changed = await postAuth(
      t.skiff.url,
      "/change-password",
      { currentPassword: TEST_PASSWORD, newPassword: "another-long-password" },
      mine,
    );
    expect(changed.status).toBe(200);
    expect((await gql(t.skiff.url, viewer, {}, { cookie: stolen })).status).toBe(401);
  });
});
