/**
 * The account pages, the API reference and the GraphQL explorer in a real browser: Debian's Chromium through
 * playwright-core against a real Skiff on loopback (SKIFF_BASE_URL on a free port, so the page origin agrees for
 * better-auth's origin check), real PostgreSQL, mail read from the outbox. One browser for the file; the tests run
 * in order on one account. Every page is checked with axe-core, and no Content-Security-Policy violation may occur.
 */
import { base32 } from "@better-auth/utils/base32";
import { createOTP } from "@better-auth/utils/otp";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newId } from "../../src/db/ids.ts";
import type { RunningSkiff } from "../../src/server/start.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { freePort } from "../helpers/free-port.ts";
import { createOrg, setPassword } from "../helpers/seed.ts";
import { startTestServer } from "../helpers/server.ts";
import { postAuth, signIn, TEST_PASSWORD } from "../helpers/session.ts";
import {
  contextSignedIn,
  expectAccessible,
  launchBrowser,
  outboxLink,
  SKIP_REASON,
  screenshot,
  watchCspViolations,
} from "./browser.ts";
import { ensureWebBuild } from "./web-build.ts";

const WAIT = { timeout: 20_000 };
const NEW_PASSWORD = "a-brand-new-passphrase";
const NEWER_PASSWORD = "yet-another-passphrase";

describe.skipIf(SKIP_REASON !== null)("account pages, API reference and GraphQL explorer in Chromium", () => {
  let db: TestDatabase;
  let skiff: RunningSkiff;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let base: string;
  let csp: string[];
  let email: string;
  let userId: string;
  let ownOrg: string;
  let otherOrg: string;

  beforeAll(async () => {
    await ensureWebBuild();
    db = await createTestDatabase();
    base = `http://127.0.0.1:${await freePort()}`;
    skiff = await startTestServer(db.url, { PORT: new URL(base).port, SKIFF_BASE_URL: base });
    browser = await launchBrowser();
    context = await browser.newContext({ baseURL: base });
    csp = await watchCspViolations(context);
    page = await context.newPage();
    const own = await createOrg(db.knex);
    ({ email, userId } = own.owner);
    ownOrg = own.organizationId;
    await setPassword(db.knex, userId, TEST_PASSWORD);
    otherOrg = (await createOrg(db.knex)).organizationId;
    await db
      .knex("members")
      .insert({ id: newId("member"), organization_id: otherOrg, user_id: userId, role: "member" });
  });
  afterAll(async () => {
    await browser?.close();
    await skiff?.stop();
    await db?.drop();
  });

  /** Subjects of the outbox mails to the account, oldest first. */
  async function subjects(): Promise<string[]> {
    const rows = await db.knex("mail_outbox").where({ to: email }).orderBy("id").select("subject");
    return rows.map((r: { subject: string }) => r.subject);
  }
  /** Whether `cookie` still has a session. */
  async function signedInWith(cookie: string): Promise<boolean> {
    const res = await fetch(`${base}/api/auth/get-session`, { headers: { cookie } });
    const body = (await res.json()) as { session?: unknown } | null;
    return body?.session != null;
  }
  /** Signs in on the sign-in page with the password; stops at the two-factor step when `twoFactor`. */
  async function signInOnPage(password: string, twoFactor = false): Promise<void> {
    await page.goto("/sign-in");
    await page.getByLabel("E-mail").fill(email);
    await page.getByLabel("Password").fill(password);
    await page.getByRole("button", { name: "Sign in" }).click();
    if (twoFactor) await page.getByText("Two-factor authentication is on").waitFor(WAIT);
    else await page.waitForURL(/\/import-sites$/, WAIT);
  }
  async function signOutOnPage(): Promise<void> {
    await page.getByRole("button", { name: "Sign out", exact: true }).click();
    await page.waitForURL(/\/sign-in/, WAIT);
  }

  it("forgot password → mail in the outbox → reset → signs in with the new password; every old session is gone", {
    timeout: 90_000,
  }, async () => {
    const oldCookie = await signIn(base, email);
    await page.goto("/sign-in");
    await page.getByRole("link", { name: "Forgot your password?" }).click();
    await page.waitForURL(/\/forgot-password$/, WAIT);
    await expectAccessible(page, "/forgot-password");
    await page.getByLabel("E-mail").fill(email);
    await page.getByRole("button", { name: "Send the link" }).click();
    await page.getByText("we sent it a link").waitFor(WAIT);

    const link = await outboxLink(db.knex, email, "/api/auth/reset-password/");
    await page.goto(link);
    await page.waitForURL(/\/reset-password\?token=/, WAIT);
    await expectAccessible(page, "/reset-password");
    await page.getByLabel("New password", { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel("Repeat the new password").fill(NEW_PASSWORD);
    await page.getByRole("button", { name: "Set the password" }).click();
    await page.getByText("every session was signed out").waitFor(WAIT);
    expect(await signedInWith(oldCookie)).toBe(false);
    expect(Number((await db.knex("sessions").where({ user_id: userId }).count({ n: "*" }))[0]?.n)).toBe(0);

    // The link works once; the old password no longer signs in; the new one does.
    await page.goto(link);
    await page.getByText("not valid any more").waitFor(WAIT);
    expect((await postAuth(base, "/sign-in/email", { email, password: TEST_PASSWORD })).status).toBe(401);
    await signInOnPage(NEW_PASSWORD);
    await expect.poll(subjects, { timeout: 15_000 }).toContain("Your Skiff password was reset");
  });

  it("two-factor: enrols with a code from the shown key, signs in with TOTP, then a recovery code used once", {
    timeout: 120_000,
  }, async () => {
    await page.goto("/account");
    const section = page.getByRole("region", { name: "Two-factor authentication" });
    await section.getByTestId("two-factor-state").filter({ hasText: /^Off:/ }).waitFor(WAIT);
    await expectAccessible(page, "/account");
    await screenshot(page, "account");
    await section.getByLabel("Password").fill(NEW_PASSWORD);
    await section.getByRole("button", { name: "Set up two-factor" }).click();
    await section.getByRole("img", { name: "QR code of the authenticator key" }).waitFor(WAIT);
    const key = ((await section.getByTestId("totp-key").textContent()) ?? "").replace(/\s+/g, "");
    const otp = createOTP(new TextDecoder().decode(base32.decode(key)), { period: 30 });
    const step = Math.floor(Date.now() / 30_000);
    await expectAccessible(page, "/account (two-factor enrolment)");
    await screenshot(page, "account-two-factor-enrol");
    await section.getByLabel("Authenticator code").fill(await otp.hotp(step));
    await section.getByRole("button", { name: "Turn on two-factor" }).click();
    await section.getByTestId("two-factor-state").filter({ hasText: /^On:/ }).waitFor(WAIT);
    const codes = (await section.getByTestId("recovery-codes").locator("code").allInnerTexts()).map((c) => c.trim());
    expect(codes).toHaveLength(10);
    expect(await section.getByRole("link", { name: "Download as a text file" }).getAttribute("download")).toBe(
      "skiff-recovery-codes.txt",
    );
    expect((await db.knex("users").where({ id: userId }).first("two_factor_enabled as enabled")).enabled).toBe(true);

    // Sign in again: the password, then a TOTP code of the next step (each code is accepted once).
    await signOutOnPage();
    await signInOnPage(NEW_PASSWORD, true);
    // The code step takes focus when it opens.
    await expect.poll(() => page.evaluate<string | null>("document.activeElement?.getAttribute('name')")).toBe("code");
    await page.getByLabel("Authenticator code").fill(await otp.hotp(step + 1));
    await page.getByRole("button", { name: "Verify" }).click();
    await page.waitForURL(/\/import-sites$/, WAIT);

    // Then with a recovery code: it works once.
    for (const expected of ["works", "refused"] as const) {
      await signOutOnPage();
      await signInOnPage(NEW_PASSWORD, true);
      await page.getByRole("button", { name: "Use a recovery code instead" }).click();
      await page.getByLabel("Recovery code").fill(codes[0]!);
      await page.getByRole("button", { name: "Verify" }).click();
      if (expected === "works") await page.waitForURL(/\/import-sites$/, WAIT);
      else await page.getByRole("alert").filter({ hasText: "not valid or was used already" }).waitFor(WAIT);
    }
    await page.getByLabel("Recovery code").fill(codes[1]!);
    await page.getByRole("button", { name: "Verify" }).click();
    await page.waitForURL(/\/import-sites$/, WAIT);

    // New recovery codes replace the old ones; then two-factor is turned off with the password.
    await page.goto("/account");
    // The inline form takes focus; Escape closes it and gives focus back to its opener.
    await section.getByRole("button", { name: "New recovery codes" }).click();
    await expect
      .poll(() => page.evaluate<string | null>("document.activeElement?.getAttribute('name')"))
      .toBe("password");
    await page.keyboard.press("Escape");
    await expect
      .poll(() => page.evaluate<string | null>("document.activeElement?.textContent"))
      .toBe("New recovery codes");
    await section.getByRole("button", { name: "New recovery codes" }).click();
    await section.getByLabel("Password").fill(NEW_PASSWORD);
    await section.getByRole("button", { name: "Make new recovery codes" }).click();
    await section.getByTestId("recovery-codes").waitFor(WAIT);
    const fresh = await section.getByTestId("recovery-codes").locator("code").allInnerTexts();
    expect(fresh).toHaveLength(10);
    expect(fresh).not.toContain(codes[2]);
    await section.getByRole("button", { name: "Turn off two-factor" }).click();
    await section.getByLabel("Password").fill(NEW_PASSWORD);
    await section.getByRole("button", { name: "Confirm: turn off" }).click();
    await section.getByTestId("two-factor-state").filter({ hasText: /^Off:/ }).waitFor(WAIT);
    await expect
      .poll(subjects, { timeout: 15_000 })
      .toEqual(
        expect.arrayContaining([
          "Two-factor authentication is on for your Skiff account",
          "Two-factor authentication is off for your Skiff account",
        ]),
      );
  });

  it("sessions: two browsers; one signs the other out; a password change ends the others and mails", {
    timeout: 90_000,
  }, async () => {
    const other = await contextSignedIn(browser, base, email, NEW_PASSWORD);
    const otherPage = await other.newPage();
    await otherPage.goto("/account");
    await otherPage.getByRole("heading", { name: "Account" }).waitFor(WAIT);

    await page.goto("/account");
    const sessions = page.getByRole("region", { name: "Sessions" });
    await sessions.locator("tr[data-session-id]").nth(1).waitFor(WAIT);
    expect(await sessions.locator("tr[data-session-id]").count()).toBe(2);
    expect(await sessions.getByText("(this session)").count()).toBe(1);
    await screenshot(page, "account-sessions");
    await sessions
      .locator("tr[data-session-id]")
      .getByRole("button", { name: /^Sign out / })
      .click();
    await sessions
      .locator("tr[data-session-id]")
      .nth(1)
      .waitFor({ state: "detached", ...WAIT });
    await otherPage.reload();
    await otherPage.waitForURL(/\/sign-in\?next=/, WAIT);
    await other.close();

    // "Sign out all other sessions", then a password change: each leaves only this session.
    const third = await signIn(base, email, NEW_PASSWORD);
    await page.reload();
    await sessions.getByRole("button", { name: "Sign out all other sessions" }).click();
    await sessions.getByRole("button", { name: "Sign out all other sessions" }).waitFor({ state: "detached", ...WAIT });
    expect(await signedInWith(third)).toBe(false);
    const fourth = await signIn(base, email, NEW_PASSWORD);
    await page.reload();
    await sessions.locator("tr[data-session-id]").nth(1).waitFor(WAIT);
    const password = page.getByRole("region", { name: "Password", exact: true });
    await password.getByLabel("Current password").fill(NEW_PASSWORD);
    await password.getByLabel("New password", { exact: true }).fill(NEWER_PASSWORD);
    await password.getByLabel("Repeat the new password").fill(NEWER_PASSWORD);
    await password.getByRole("button", { name: "Change password" }).click();
    await password.getByText("Your password is changed").waitFor(WAIT);
    expect(await signedInWith(fourth)).toBe(false);
    // The Sessions list is read again: only this session, without a reload.
    await sessions
      .locator("tr[data-session-id]")
      .nth(1)
      .waitFor({ state: "detached", ...WAIT });
    expect(await sessions.locator("tr[data-session-id]").count()).toBe(1);
    // The notice is mailed by a job, shortly after the answer.
    await expect.poll(subjects, { timeout: 15_000 }).toContain("Your Skiff password was changed");
  });

  it("refuses to unlink the last way to sign in; leaves an organization, never as its owner", {
    timeout: 60_000,
  }, async () => {
    await page.goto("/account");
    const methods = page.getByRole("region", { name: "Ways to sign in" });
    await methods.getByText("This is your only way to sign in").waitFor(WAIT);
    await methods.getByRole("button", { name: "Remove E-mail and password" }).click();
    await methods.getByRole("alert").filter({ hasText: "only way to sign in" }).waitFor(WAIT);
    expect(Number((await db.knex("accounts").where({ user_id: userId }).count({ n: "*" }))[0]?.n)).toBe(1);

    const orgs = page.getByRole("region", { name: "Organizations" });
    const other = orgs.locator(`li[data-organization-id="${otherOrg}"]`);
    await other.getByRole("button", { name: /^Leave / }).click();
    await other.getByRole("button", { name: "Leave", exact: true }).click();
    await orgs.getByText("You left").waitFor(WAIT);
    await other.waitFor({ state: "detached", ...WAIT });
    expect(await db.knex("members").where({ user_id: userId, organization_id: otherOrg }).first()).toBeUndefined();
    const own = orgs.locator(`li[data-organization-id="${ownOrg}"]`);
    await own.getByText("The owner cannot leave").waitFor(WAIT);
    expect(await own.getByRole("button").count()).toBe(0);
    // The API says the same to an owner who tries anyway.
    const cookie = (await context.cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
    const res = await fetch(`${base}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie },
      body: JSON.stringify({
        query: "mutation($id: ID!) { leaveOrganization(organizationId: $id) }",
        variables: { id: ownOrg },
      }),
    });
    const body = (await res.json()) as { errors?: { extensions?: { code?: string } }[] };
    expect(body.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
  });

  it("an account that signs in only through a provider sets its first password from a mailed link", {
    timeout: 90_000,
  }, async () => {
    const oauth = (await createOrg(db.knex)).owner;
    await setPassword(db.knex, oauth.userId, TEST_PASSWORD);
    const own = await contextSignedIn(browser, base, oauth.email);
    // From now on the account's only way to sign in is GitHub: no password.
    await db.knex("accounts").where({ user_id: oauth.userId }).delete();
    await db.knex("accounts").insert({
      id: newId("account"),
      user_id: oauth.userId,
      provider_id: "github",
      account_id: `gh-${oauth.userId}`,
    });
    const p = await own.newPage();
    await p.goto("/account");
    const section = p.getByRole("region", { name: "Password" });
    await section.getByText("have no password").waitFor(WAIT);
    await expectAccessible(p, "/account (no password)");
    await section.getByRole("button", { name: "Mail me a link to set a password" }).click();
    await section.getByText(`We sent a link to ${oauth.email}`).waitFor(WAIT);
    const link = await outboxLink(db.knex, oauth.email, "/api/auth/reset-password/");
    await p.goto(link);
    await p.getByLabel("New password", { exact: true }).fill(NEW_PASSWORD);
    await p.getByLabel("Repeat the new password").fill(NEW_PASSWORD);
    await p.getByRole("button", { name: "Set the password" }).click();
    await p.getByText("every session was signed out").waitFor(WAIT);
    expect(
      await db.knex("accounts").where({ user_id: oauth.userId }).orderBy("provider_id").pluck("provider_id"),
    ).toEqual(["credential", "github"]);
    expect((await postAuth(base, "/sign-in/email", { email: oauth.email, password: NEW_PASSWORD })).status).toBe(200);
    await own.close();
  });

  it("API reference renders each document, and “Try it out” answers with the session", {
    timeout: 90_000,
  }, async () => {
    await page.goto("/import-sites");
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "API reference" }).click();
    await page.waitForURL(/\/docs\/api$/, WAIT);
    const reference = page.getByTestId("api-reference");
    await reference.locator(".info .title").filter({ hasText: "Skiff" }).waitFor(WAIT);
    await reference.locator("#operations-site-import-listSiteImports").waitFor(WAIT);
    await expectAccessible(page, "/docs/api");
    await screenshot(page, "docs-api");

    const operation = reference.locator("#operations-site-import-listSiteImports");
    await operation.locator(".opblock-summary-control").click();
    await operation.getByRole("button", { name: "Execute" }).click();
    const status = operation.locator(".live-responses-table .response .response-col_status").first();
    await status.filter({ hasText: "200" }).waitFor(WAIT);

    await page.getByLabel("Document").selectOption("/api/agent/openapi.json");
    await reference.locator(".info .title").filter({ hasText: "Agent" }).waitFor(WAIT);
    expect(await reference.locator(".opblock").count()).toBeGreaterThan(2);
  });

  it("GraphQL explorer runs a query with the session", { timeout: 90_000 }, async () => {
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "GraphQL explorer" }).click();
    await page.waitForURL(/\/docs\/graphql$/, WAIT);
    // The editor (Monaco, a large chunk with its workers) is ready once it shows the default query.
    await page.locator(".graphiql-query-editor").getByText("query Me").waitFor({ timeout: 60_000 });
    await page.getByRole("button", { name: /Execute query/ }).click();
    await page.locator(".graphiql-response").getByText(email).waitFor({ timeout: 60_000 });
    // GraphiQL's operation tab is a `role=tab` list item holding its own button (axe: nested-interactive), as
    // GraphiQL draws it; the tab bar is left out of the check, the rest of the page is checked.
    await expectAccessible(page, "/docs/graphql", [".graphiql-tabs"]);
    await screenshot(page, "docs-graphql");
  });

  it("password: two different new passwords are said once, in words (no “Error: Error:”); editing clears it; a wrong current password is said under its field", {
    timeout: 60_000,
  }, async () => {
    const other = await createOrg(db.knex);
    await setPassword(db.knex, other.owner.userId, TEST_PASSWORD);
    const ctx = await contextSignedIn(browser, base, other.owner.email);
    const p = await ctx.newPage();
    await p.goto("/account");
    const section = p.getByRole("region", { name: "Password" });
    await section.getByLabel("Current password").fill(TEST_PASSWORD);
    await section.getByLabel("New password", { exact: true }).fill("one-new-passphrase");
    await section.getByLabel("Repeat the new password").fill("another-new-passphrase");
    await section.getByRole("button", { name: "Change password" }).click();
    const alert = section.getByRole("alert");
    await alert.waitFor(WAIT);
    expect(await alert.textContent()).toBe("Error: The two new passwords differ.");
    await section.getByLabel("Repeat the new password").fill("one-new-passphrase");
    await alert.waitFor({ state: "detached", ...WAIT });

    // A wrong current password is said under Current password (aria-invalid, aria-describedby), not as a form alert.
    await section.getByLabel("Current password").fill("not-the-password");
    await section.getByRole("button", { name: "Change password" }).click();
    await alert.filter({ hasText: "The password is not right." }).waitFor(WAIT);
    const current = section.getByLabel("Current password");
    expect(await current.getAttribute("aria-invalid")).toBe("true");
    const described = await current.getAttribute("aria-describedby");
    expect(await p.locator(`[id="${described}"]`).textContent()).toBe("The password is not right.");
    expect(await alert.count()).toBe(1);
    expect(await section.getByText("Error: ").count()).toBe(0);
    await ctx.close();
  });

  it("saw no Content-Security-Policy violation on any page", () => {
    expect(csp).toEqual([]);
  });
});
