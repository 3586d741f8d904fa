/**
 * Optional TOTP two-factor sign-in (spec "Sign-in and accounts"): codes of the current 30-second step and the
 * steps just before and after are accepted, two steps away rejected, a code is accepted only once; each
 * recovery code works once; the operator command `reset-2fa` turns two-factor off.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { base32 } from "@better-auth/utils/base32";
import { createOTP } from "@better-auth/utils/otp";
import { describe, expect, it } from "vitest";
import { createOrg } from "../helpers/seed.ts";
import { useTestServer } from "../helpers/server.ts";
import { cookieOf, postAuth, sessionFor, TEST_PASSWORD } from "../helpers/session.ts";

const STEP_MS = 30_000;
const t = useTestServer();

/** A user with two-factor enabled: its TOTP secret (raw bytes as string) and recovery codes. */
async function enableTwoFactor() {
  const org = await createOrg(t.db.knex);
  const cookie = await sessionFor(t.db.knex, t.skiff.url, org.owner);
  const enabled = await postAuth(t.skiff.url, "/two-factor/enable", { password: TEST_PASSWORD }, cookie);
  expect(enabled.status).toBe(200);
  const { totpURI, backupCodes } = (await enabled.json()) as { totpURI: string; backupCodes: string[] };
  const secret = new TextDecoder().decode(base32.decode(new URL(totpURI).searchParams.get("secret") ?? ""));
  const otp = createOTP(secret, { period: 30 });
  const step = Math.floor(Date.now() / STEP_MS);
  const confirm = await postAuth(t.skiff.url, "/two-factor/verify-totp", { code: await otp.hotp(step) }, cookie);
  expect(confirm.status).toBe(200);
  // The authenticator key is shown once, by enable: it cannot be read again.
  const again = await postAuth(t.skiff.url, "/two-factor/get-totp-uri", { password: TEST_PASSWORD }, cookie);
  expect(again.status).toBe(404);
  expect(await again.text()).not.toContain(new URL(totpURI).searchParams.get("secret")!);
  return { email: org.owner.email, userId: org.owner.userId, otp, backupCodes };
}

/** Starts a password sign-in; expects the second-factor challenge. @returns the challenge cookie. */
async function challenge(email: string): Promise<string> {
  const res = await postAuth(t.skiff.url, "/sign-in/email", { email, password: TEST_PASSWORD });
  expect(res.status).toBe(200);
  expect(await res.json()).toMatchObject({ twoFactorRedirect: true });
  return cookieOf(res);
}

async function verifyTotp(cookie: string, code: string): Promise<number> {
  return (await postAuth(t.skiff.url, "/two-factor/verify-totp", { code }, cookie)).status;
}

/** Waits, when needed, until at least 20 seconds of the current TOTP step remain. @returns that step. */
async function stepWithRoom(): Promise<number> {
  const into = Date.now() % STEP_MS;
  if (into > STEP_MS - 20_000) await new Promise((r) => setTimeout(r, STEP_MS - into + 250));
  return Math.floor(Date.now() / STEP_MS);
}

describe("TOTP", () => {
  it("accepts the current step and ±1, rejects ±2, and accepts each code only once", { timeout: 60_000 }, async () => {
    const user = await enableTwoFactor();
    const step = await stepWithRoom();
    // As if the last code had been used a few minutes ago, so the step before the current one is still fresh.
    await t.db
      .knex("two_factors")
      .where({ user_id: user.userId })
      .update({ last_totp_step: step - 10 });
    const code = (offset: number) => user.otp.hotp(step + offset);

    let cookie = await challenge(user.email);
    expect(await verifyTotp(cookie, await code(-2))).toBe(401);
    expect(await verifyTotp(cookie, await code(2))).toBe(401);
    expect(await verifyTotp(cookie, await code(-1))).toBe(200);

    cookie = await challenge(user.email);
    expect(await verifyTotp(cookie, await code(-1))).toBe(401); // reused
    expect(await verifyTotp(cookie, await code(0))).toBe(200);

    cookie = await challenge(user.email);
    expect(await verifyTotp(cookie, await code(0))).toBe(401); // reused
    expect(await verifyTotp(cookie, await code(1))).toBe(200);

    cookie = await challenge(user.email);
    expect(await verifyTotp(cookie, await code(1))).toBe(401); // reused
    expect(await verifyTotp(cookie, await code(0))).toBe(401); // older than the last accepted code
    expect(Math.floor(Date.now() / STEP_MS)).toBe(step);
  });

  it("accepts one of two simultaneous uses of the same code", async () => {
    const user = await enableTwoFactor();
    const step = await stepWithRoom();
    const code = await user.otp.hotp(step + 1);
    const cookies = await Promise.all([challenge(user.email), challenge(user.email)]);
    const statuses = await Promise.all(cookies.map((c) => verifyTotp(c, code)));
    expect(statuses.sort()).toEqual([200, 401]);
  });
});

describe("recovery codes", () => {
  it("signs in with each recovery code exactly once", async () => {
    const user = await enableTwoFactor();
    expect(user.backupCodes).toHaveLength(10);
    const codes = user.backupCodes as string[];
    expect(new Set(codes).size).toBe(10);
    const use = async (code: string) =>
      (await postAuth(t.skiff.url, "/two-factor/verify-backup-code", { code }, await challenge(user.email))).status;
    // Every code: accepted once, then refused. 20 attempts exceed the account's attempt limit (10 in 15 minutes),
    // so its counters are cleared between codes: what is checked here is the code, not the limit.
    for (const [i, code] of codes.entries()) {
      await t.db.knex("auth_attempt_limits").delete();
      expect(await use(code), `code ${i + 1}, first use`).toBe(200);
      expect(await use(code), `code ${i + 1}, second use`).toBe(401);
    }
    expect(await use("nope-nope")).toBe(401);
  });
});

describe("operator reset", () => {
  it("turns two-factor off with `npm run skiff -- reset-2fa <email>`", async () => {
    const user = await enableTwoFactor();
    const run = (args: string[]) =>
      promisify(execFile)(process.execPath, ["src/cli.ts", ...args], {
        env: { ...process.env, DATABASE_URL: t.db.url, LOG_LEVEL: "silent" },
      });
    const { stdout } = await run(["reset-2fa", user.email.toUpperCase()]);
    expect(stdout).toContain(`Two-factor authentication turned off for ${user.email}`);
    expect(await t.db.knex("two_factors").where({ user_id: user.userId }).first()).toBeUndefined();

    const res = await postAuth(t.skiff.url, "/sign-in/email", { email: user.email, password: TEST_PASSWORD });
    expect(res.status).toBe(200);
    expect(await res.json()).not.toHaveProperty("twoFactorRedirect");
    expect(cookieOf(res)).toContain("skiff.session_token=");

    await expect(run(["reset-2fa", "nobody@example.test"])).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining("No account"),
    });
    await expect(run(["reset-2fa"])).rejects.toMatchObject({ code: 2 });
  });
});
