/**
 * The dashboard in a real browser: Debian's Chromium through playwright-core against a
 * real Skiff on loopback (fixed port 4481, so that SKIFF_BASE_URL and the page origin agree for better-auth's
 * origin check), real PostgreSQL, real graphql-ws. Screenshots go to artifacts/screenshots/.
 */
import { base32 } from "@better-auth/utils/base32";
import { createOTP } from "@better-auth/utils/otp";
import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningSkiff } from "../../src/server/start.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { createOrg, createUser, setPassword } from "../helpers/seed.ts";
import { startTestServer } from "../helpers/server.ts";
import { cookieOf, postAuth, sessionFor, TEST_PASSWORD } from "../helpers/session.ts";
import { failInsertsWhen, slowInsertsWhen } from "../site-imports/import-helpers.ts";
import { contextSignedIn, focused, launchBrowser, outboxLink, SKIP_REASON, screenshot } from "./browser.ts";
import { ensureWebBuild } from "./web-build.ts";

const PORT = 4481;
const BASE = `http://127.0.0.1:${PORT}`;
const WAIT = { timeout: 20_000 };

/** Waits until the import row `id` shows the status word `label`. */
function statusOf(page: Page, id: string): Locator {
  return page.locator(`tr[data-import-id="${id}"] [data-testid=status]`);
}
async function waitStatus(page: Page, id: string, label: string): Promise<void> {
  await statusOf(page, id).filter({ hasText: label }).waitFor(WAIT);
}

describe.skipIf(SKIP_REASON !== null)("dashboard in Chromium", () => {
  let db: TestDatabase;
  let skiff: RunningSkiff;
  let browser: Browser;
  let owner: BrowserContext;
  let page: Page;
  const ownerEmail = "owner@dash.test";

  beforeAll(async () => {
    await ensureWebBuild();
    db = await createTestDatabase();
    skiff = await startTestServer(db.url, {
      PORT: String(PORT),
      SKIFF_BASE_URL: BASE,
      SKIFF_DEFAULT_REGISTRY_URL: "registry.test/skiff",
    });
    browser = await launchBrowser();
    owner = await browser.newContext({ baseURL: BASE });
    page = await owner.newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await skiff?.stop();
    await db?.drop();
  });

  /** Rows of `table` matching `where`. */
  async function count(table: string, where: Record<string, string> = {}): Promise<number> {
    const row = await db.knex(table).where(where).count({ n: "*" }).first();
    return Number(row?.n);
  }

  /** A new browser context signed in as `email`. */
  function contextSignedInAs(email: string, password = TEST_PASSWORD): Promise<BrowserContext> {
    return contextSignedIn(browser, BASE, email, password);
  }

  it("serves the pages: SPA routes answer index.html, other paths keep their 404", async () => {
    for (const path of ["/sign-in", "/import-sites", "/accept-invitation?token=x"]) {
      const res = await fetch(`${BASE}${path}`);
      expect(res.status, path).toBe(200);
      expect(res.headers.get("content-type")).toContain("text/html");
      expect(await res.text()).toContain('<div id="root">');
    }
    expect((await fetch(`${BASE}/no-such-page`)).status).toBe(404);
    expect((await fetch(`${BASE}/healthz`)).status).toBe(200);
  });

  it("signs up, verifies through the outbox link and signs in", { timeout: 90_000 }, async () => {
    await page.goto("/sign-up");
    await screenshot(page, "sign-up");
    await page.getByLabel("Name").fill("Olga Owner");
    await page.getByLabel("E-mail").fill(ownerEmail);
    await page.getByLabel("Password").fill(TEST_PASSWORD);
    await page.getByRole("button", { name: "Create account" }).click();
    await page.getByText("We sent a verification link").waitFor(WAIT);

    // Not verified yet: the sign-in page says so in words.
    await page.goto("/sign-in");
    await page.getByLabel("E-mail").fill(ownerEmail);
    await page.getByLabel("Password").fill(TEST_PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("alert").filter({ hasText: "not verified" }).waitFor(WAIT);
    // Wrong password: said in words too.
    await page.getByLabel("Password").fill("wrong-password-1");
    await page.getByLabel("E-mail").fill("nobody@dash.test");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("alert").filter({ hasText: "Wrong e-mail address or password" }).waitFor(WAIT);

    const link = await outboxLink(db.knex, ownerEmail, "/api/auth/verify-email");
    await page.goto(link);
    await page.waitForURL(/\/sign-in\?verified=1/, WAIT);
    await page.getByText("Your e-mail address is verified").waitFor(WAIT);
    await screenshot(page, "sign-in");
    await page.getByLabel("E-mail").fill(ownerEmail);
    await page.getByLabel("Password").fill(TEST_PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(/\/import-sites$/, WAIT);

    // A new account has no organization yet: the page offers to create one.
    await page.getByLabel("Organization name").fill("Dash Co");
    await page.getByRole("button", { name: "Create organization" }).click();
    await page.getByRole("heading", { name: "Site imports · Dash Co" }).waitFor(WAIT);
    // What the pages said is what the database holds: the address verified, the organization owned by the account.
    const { rows } = await db.knex.raw(
      `select u.email_verified as verified, o.name as organization, m.role as role
       from users u join members m on m.user_id = u.id join organizations o on o.id = m.organization_id
       where u.email = ?`,
      [ownerEmail],
    );
    expect(rows).toEqual([{ verified: true, organization: "Dash Co", role: "owner" }]);
  });

  it("previews, imports live in two contexts, fails on a duplicate, deletes with rollback, retries", {
    timeout: 120_000,
  }, async () => {
    const watcherContext = await contextSignedInAs(ownerEmail);
    const watcher = await watcherContext.newPage();
    await watcher.goto("/import-sites");
    await page.getByText("No imports yet.").waitFor(WAIT);
    await watcher.evaluate(() => {
      (globalThis as unknown as { notReloaded: boolean }).notReloaded = true;
    });

    // Preview before anything exists: valid, with the resources listed.
    await page.getByLabel("Name", { exact: true }).fill("shop");
    await page.getByLabel("Docker image").fill("nginx:1.27");
    await page.getByRole("checkbox", { name: "Create a database" }).check();
    await page.getByLabel("Database name").fill("shop");
    await page.getByLabel("Database user").fill("shop");
    await page.getByLabel("Database password").fill("s3cret-pass");
    await page.getByRole("button", { name: "Add variable" }).click();
    await page.getByLabel("Variable 1 name").fill("APP_ENV");
    await page.getByLabel("Variable 1 value").fill("production");
    await page.getByRole("button", { name: "Preview" }).click();
    const preview = page.getByTestId("preview");
    await preview.getByText("ready to import").waitFor(WAIT);
    await preview.getByText("Database “shop” (postgres)").waitFor(WAIT);
    expect(await count("projects")).toBe(0);

    // Import: the watcher sees the new row go pending → success without reloading.
    await page.getByRole("button", { name: "Import", exact: true }).click();
    await page.getByText('Imported "shop"').waitFor(WAIT);
    const [first] = await db.knex("site_imports").where({ name: "shop" }).select("id");
    await waitStatus(page, first.id, "Success");
    await waitStatus(watcher, first.id, "Success");
    const seen = await watcher.locator(`tr[data-import-id="${first.id}"]`).getAttribute("data-seen");
    // `pending` when queued and after each committed step (project, database, application), then `success`.
    expect(seen?.split(" ")).toEqual(["pending", "pending", "pending", "pending", "success"]);
    await screenshot(page, "import-sites-success");

    // Preview again: the name is taken, the errors are shown before anything is created.
    await page.getByRole("button", { name: "Preview" }).click();
    await preview.getByText("this import would fail").waitFor(WAIT);
    await preview.getByRole("alert").filter({ hasText: "already exists" }).waitFor(WAIT);
    await screenshot(page, "import-preview-errors");

    // Import anyway: failed at project_creation; it offers Retry and Delete, no Roll back.
    await page.getByRole("button", { name: "Import", exact: true }).click();
    await page.getByText("Import failed at project_creation").waitFor(WAIT);
    const [failed] = await db.knex("site_imports").where({ name: "shop", status: "failed" }).select("id");
    await waitStatus(page, failed.id, "Failed");
    await waitStatus(watcher, failed.id, "Failed");
    const failedRow = page.locator(`tr[data-import-id="${failed.id}"]`);
    await failedRow.getByText("project_creation").waitFor(WAIT);
    expect(await failedRow.getByRole("button", { name: /^Roll back/ }).count()).toBe(0);
    expect(await failedRow.getByRole("button", { name: /^Retry/ }).count()).toBe(1);
    const successRow = page.locator(`tr[data-import-id="${first.id}"]`);
    expect(await successRow.getByRole("button", { name: /^Retry/ }).count()).toBe(0);

    // Delete the first import with its resources: the row leaves the page, the project is gone, and the row
    // leaves the watcher's page too (siteImportUpdated reports `deleted`), without a reload.
    // The confirmation takes focus, Escape cancels it and gives focus back to Delete.
    const deleteButton = successRow.getByRole("button", { name: /^Delete/ });
    await deleteButton.click();
    const box = successRow.getByRole("group", { name: /^Confirm delete of/ });
    await box.waitFor(WAIT);
    expect((await focused(page)).label).toMatch(/^Confirm delete of/);
    await page.keyboard.press("Escape");
    await box.waitFor({ state: "detached", ...WAIT });
    expect(await focused(page)).toMatchObject({ tag: "button", label: expect.stringMatching(/^Delete /) });
    await deleteButton.click();
    await successRow.getByRole("checkbox", { name: "Also delete the created resources" }).check();
    await successRow.getByRole("button", { name: "Confirm delete" }).click();
    await successRow.waitFor({ state: "detached", ...WAIT });
    await watcher.locator(`tr[data-import-id="${first.id}"]`).waitFor({ state: "detached", ...WAIT });
    await watcher.locator(`tr[data-import-id="${failed.id}"]`).waitFor(WAIT);
    expect(await count("projects", { name: "shop" })).toBe(0);

    // Retry the failed one: the name is free now, it succeeds on attempt 2, live on the watcher.
    await failedRow.getByRole("button", { name: /^Retry/ }).click();
    await waitStatus(page, failed.id, "Success");
    await waitStatus(watcher, failed.id, "Success");
    await watcher.locator(`tr[data-import-id="${failed.id}"]`).getByText("attempt 2").waitFor(WAIT);
    await watcher.locator(`tr[data-import-id="${failed.id}"]`).getByText("Project shop").waitFor(WAIT);

    // Delete with rollback: record and project gone.
    await failedRow.getByRole("button", { name: /^Delete/ }).click();
    await failedRow.getByRole("checkbox", { name: "Also delete the created resources" }).check();
    await failedRow.getByRole("button", { name: "Confirm delete" }).click();
    await page.getByText("No imports yet.").waitFor(WAIT);
    expect(await count("projects")).toBe(0);
    expect(await count("site_imports")).toBe(0);
    expect(await watcher.evaluate(() => (globalThis as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
    await watcherContext.close();
  });

  it("a failing domain step makes an import partial: nothing offered while pending; then Retry, Roll back, Delete", {
    timeout: 90_000,
  }, async () => {
    // Real failures and delays inside PostgreSQL (triggers), as in test/site-imports.
    await failInsertsWhen(db.knex, "domains", "host", "fail-at-domain");
    await slowInsertsWhen(db.knex, "projects", "name", "slow-", 2);
    await page.goto("/import-sites");
    await page.getByLabel("Name", { exact: true }).fill("slow-blog");
    await page.getByLabel("Docker image").fill("nginx:1.27");
    await page.getByLabel("Domain").fill("fail-at-domain.dash.test");
    await page.getByRole("button", { name: "Import", exact: true }).click();

    const row = page.locator('tr[data-name="slow-blog"]');
    await row.getByTestId("status").filter({ hasText: "Pending" }).waitFor(WAIT);
    await row.getByText("no actions while pending").waitFor(WAIT);
    expect(await row.getByRole("button").count()).toBe(0);
    await screenshot(page, "import-sites-pending");

    await page.getByText("Import partial at domain_creation").waitFor(WAIT);
    await row.getByTestId("status").filter({ hasText: "Partial" }).waitFor(WAIT);
    await row.getByText("domain_creation").waitFor(WAIT);
    for (const action of ["Retry", "Roll back", "Delete"])
      await row.getByRole("button", { name: new RegExp(`^${action}`) }).waitFor(WAIT);
    await screenshot(page, "import-sites");

    const [partial] = await db.knex("site_imports").where({ name: "slow-blog" }).select("id", "projectId");
    expect(partial.projectId).toMatch(/^prj_/);
    await row.getByRole("button", { name: /^Roll back/ }).click();
    await row.getByRole("button", { name: "Confirm rollback" }).click();
    await row.waitFor({ state: "detached", ...WAIT });
    expect(await count("projects", { id: partial.projectId })).toBe(0);
    expect(await count("site_imports", { id: partial.id })).toBe(0);
  });

  it("invites a new person, who creates the account through the mailed link and sees no Import button", {
    timeout: 90_000,
  }, async () => {
    await page.getByRole("link", { name: "Settings" }).click();
    await page.getByLabel("E-mail to invite").fill("newbie@dash.test");
    await page.getByLabel("Role", { exact: true }).selectOption("member");
    await page.getByRole("button", { name: "Send invitation", exact: true }).click();
    await page.getByText("Invitation sent to newbie@dash.test").waitFor(WAIT);
    await page
      .getByRole("row", { name: /newbie@dash\.test/ })
      .getByText("pending")
      .waitFor(WAIT);
    await screenshot(page, "settings");
    const link = await outboxLink(db.knex, "newbie@dash.test", "/accept-invitation?token=");

    // The owner opening it is told to sign out first.
    const ownerView = await owner.newPage();
    await ownerView.goto(link);
    await ownerView.getByText(`You are signed in as ${ownerEmail}. Sign out first`).waitFor(WAIT);
    await ownerView.getByRole("button", { name: "Sign out" }).waitFor(WAIT);
    await ownerView.close();

    const context = await browser.newContext({ baseURL: BASE });
    const invitee = await context.newPage();
    await invitee.goto(link);
    await invitee.getByText("Dash Co invites newbie@dash.test to join as member").waitFor(WAIT);
    await screenshot(invitee, "accept-invitation-new-account");
    expect(await invitee.getByLabel("E-mail").inputValue()).toBe("newbie@dash.test");
    expect(await invitee.getByLabel("E-mail").getAttribute("readonly")).not.toBeNull();
    await invitee.getByLabel("Name").fill("Nina Newbie");
    await invitee.getByLabel("Password").fill(TEST_PASSWORD);
    await invitee.getByRole("button", { name: "Create account and join" }).click();
    await invitee.waitForURL(/\/import-sites$/, WAIT);
    await invitee.getByRole("heading", { name: "Site imports · Dash Co" }).waitFor(WAIT);
    await invitee.getByText("As a member you can follow imports").waitFor(WAIT);
    expect(await invitee.getByRole("button", { name: "Import", exact: true }).count()).toBe(0);
    expect(await invitee.getByRole("button", { name: "Preview" }).count()).toBe(0);
    await screenshot(invitee, "import-sites-member");

    // Settings: the team is visible, its controls are not offered.
    await invitee.getByRole("link", { name: "Settings" }).click();
    await invitee.getByRole("heading", { name: "Team" }).waitFor(WAIT);
    await invitee.getByText("owner@dash.test").waitFor(WAIT);
    expect(await invitee.getByRole("button", { name: "Send invitation", exact: true }).count()).toBe(0);
    expect(await invitee.getByRole("combobox", { name: /^Role of/ }).count()).toBe(0);
    expect(await invitee.getByRole("button", { name: /^Remove / }).count()).toBe(0);

    // The used link now says so.
    await invitee.goto(link);
    await invitee.getByText("This invitation was already used.").waitFor(WAIT);
    await context.close();
  });

  it("invites an existing account, which signs in and accepts; a cancelled link says so", {
    timeout: 90_000,
  }, async () => {
    const existing = await createUser(db.knex, "existing@dash.test");
    await setPassword(db.knex, existing.userId, TEST_PASSWORD);
    await page.goto("/settings");
    for (const email of ["existing@dash.test", "cancelled@dash.test"]) {
      await page.getByLabel("E-mail to invite").fill(email);
      await page.getByLabel("Role", { exact: true }).selectOption("admin");
      await page.getByRole("button", { name: "Send invitation", exact: true }).click();
      await page.getByText(`Invitation sent to ${email}`).waitFor(WAIT);
    }
    await page.getByRole("button", { name: "Cancel invitation to cancelled@dash.test" }).click();
    await page.getByRole("button", { name: "Confirm: cancel the invitation to cancelled@dash.test" }).click();
    await page
      .getByRole("row", { name: /cancelled@dash\.test/ })
      .getByText("revoked")
      .waitFor(WAIT);

    const context = await browser.newContext({ baseURL: BASE });
    const invitee = await context.newPage();
    await invitee.goto(await outboxLink(db.knex, "cancelled@dash.test", "/accept-invitation?token="));
    await invitee.getByText("This invitation was cancelled").waitFor(WAIT);

    await invitee.goto(await outboxLink(db.knex, "existing@dash.test", "/accept-invitation?token="));
    await invitee.getByText("An account with this address exists").waitFor(WAIT);
    await invitee.getByLabel("Password").fill(TEST_PASSWORD);
    await invitee.getByRole("button", { name: "Sign in" }).click();
    await invitee.getByRole("button", { name: "Accept invitation" }).click();
    await invitee.waitForURL(/\/import-sites$/, WAIT);
    await invitee.getByRole("heading", { name: "Site imports · Dash Co" }).waitFor(WAIT);
    // An admin may import.
    await invitee.getByRole("button", { name: "Import", exact: true }).waitFor(WAIT);
    const member = await db
      .knex("members")
      .join("organizations", "organizations.id", "members.organization_id")
      .where({ "members.user_id": existing.userId, "organizations.name": "Dash Co" })
      .first("members.role");
    expect(member?.role).toBe("admin");
    await context.close();
  });

  it("two-factor sign-in: the TOTP step (a wrong code is refused in words), and the recovery-code path", {
    timeout: 90_000,
  }, async () => {
    const org = await createOrg(db.knex);
    const cookie = await sessionFor(db.knex, BASE, org.owner);
    const enabled = await postAuth(BASE, "/two-factor/enable", { password: TEST_PASSWORD }, cookie);
    const { totpURI, backupCodes } = (await enabled.json()) as { totpURI: string; backupCodes: string[] };
    const secret = new TextDecoder().decode(base32.decode(new URL(totpURI).searchParams.get("secret") ?? ""));
    const otp = createOTP(secret, { period: 30 });
    const step = Math.floor(Date.now() / 30_000);
    expect((await postAuth(BASE, "/two-factor/verify-totp", { code: await otp.hotp(step) }, cookie)).status).toBe(200);

    const signInUpToCode = async (context: BrowserContext) => {
      const p = await context.newPage();
      await p.goto("/sign-in");
      await p.getByLabel("E-mail").fill(org.owner.email);
      await p.getByLabel("Password").fill(TEST_PASSWORD);
      await p.getByRole("button", { name: "Sign in" }).click();
      await p.getByText("Two-factor authentication is on").waitFor(WAIT);
      return p;
    };
    const first = await browser.newContext({ baseURL: BASE });
    const p1 = await signInUpToCode(first);
    await screenshot(p1, "sign-in-totp");
    const wrong = String((Number(await otp.hotp(step + 1)) + 1) % 1_000_000).padStart(6, "0");
    await p1.getByLabel("Authenticator code").fill(wrong);
    await p1.getByRole("button", { name: "Verify" }).click();
    await p1.getByRole("alert").waitFor(WAIT);
    // The next step's code (accepted: ±1 step, never a used one).
    await p1.getByLabel("Authenticator code").fill(await otp.hotp(step + 1));
    await p1.getByRole("button", { name: "Verify" }).click();
    await p1.waitForURL(/\/import-sites$/, WAIT);
    await p1.getByRole("heading", { name: /^Site imports/ }).waitFor(WAIT);
    await first.close();

    const second = await browser.newContext({ baseURL: BASE });
    const p2 = await signInUpToCode(second);
    await p2.getByRole("button", { name: "Use a recovery code instead" }).click();
    await p2.getByLabel("Recovery code").fill(backupCodes[0]!);
    await p2.getByRole("button", { name: "Verify" }).click();
    await p2.waitForURL(/\/import-sites$/, WAIT);
    await p2.getByRole("heading", { name: /^Site imports/ }).waitFor(WAIT);
    await second.close();
  });

  it("the organization switcher moves the page, and its live list, to another organization", {
    timeout: 60_000,
  }, async () => {
    const res = await postAuth(BASE, "/sign-in/email", { email: ownerEmail, password: TEST_PASSWORD });
    const cookie = cookieOf(res);
    const call = async (query: string, variables: Record<string, unknown>) => {
      const r = await fetch(`${BASE}/graphql`, {
        method: "POST",
        headers: { "content-type": "application/json", cookie },
        body: JSON.stringify({ query, variables }),
      });
      const body = (await r.json()) as { data: Record<string, { id?: string; status?: string }> };
      return body.data;
    };
    const created = await call("mutation($i: CreateOrganizationInput!) { createOrganization(input: $i) { id } }", {
      i: { name: "Second Co" },
    });
    const secondId = created.createOrganization!.id!;

    await page.goto("/import-sites");
    await page.getByRole("heading", { name: "Site imports · Dash Co" }).waitFor(WAIT);
    await page.getByLabel("Organization").selectOption(secondId);
    await page.getByRole("heading", { name: "Site imports · Second Co" }).waitFor(WAIT);
    await page.getByText("No imports yet.").waitFor(WAIT);

    // An import in Second Co made elsewhere (another session) appears live on the switched page.
    const result = await call("mutation($i: SiteImportInput!) { importSite(input: $i) { importId status } }", {
      i: { organizationId: secondId, name: "elsewhere", source: { type: "docker", dockerImage: "nginx:1.27" } },
    });
    expect(result.importSite!.status).toBe("success");
    await waitStatus(page, (result.importSite as { importId: string }).importId, "Success");
    expect(await page.locator('tr[data-name="blog"]').count()).toBe(0);

    await page.getByLabel("Organization").selectOption({ label: "Dash Co (owner)" });
    await page.getByRole("heading", { name: "Site imports · Dash Co" }).waitFor(WAIT);
  });

  it("settings: creates an API key shown once, which then authenticates GraphQL", { timeout: 60_000 }, async () => {
    await page.goto("/settings");
    await page.getByLabel("Key name").fill("ci");
    await page.getByRole("button", { name: "Create key" }).click();
    const secret = await page.getByLabel("New API key").inputValue();
    expect(secret).toMatch(/^skiff_/);
    await page.getByRole("row", { name: /^ci / }).waitFor(WAIT);
    const res = await fetch(`${BASE}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${secret}` },
      body: JSON.stringify({ query: "{ viewer { user { email } } }" }),
    });
    expect(((await res.json()) as { data: { viewer: { user: { email: string } } } }).data.viewer.user.email).toBe(
      ownerEmail,
    );
    await page.reload();
    expect(await page.getByLabel("New API key").count()).toBe(0);
    await page.getByRole("button", { name: /^Delete key ci \(/ }).click();
    await page.getByRole("button", { name: /^Confirm: delete key ci \(/ }).click();
    await page.getByRole("row", { name: /^ci / }).waitFor({ state: "detached", ...WAIT });
  });
});
