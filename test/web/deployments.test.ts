/**
 * Settings → Deploy and the application page in a real browser: Debian's Chromium through
 * playwright-core against a real Skiff on loopback (port 4640, below the ephemeral range so no client socket holds it: SKIFF_BASE_URL, the deploy URLs and the page origin
 * agree), real PostgreSQL, real HTTP requests to the deploy URL with real HMAC signatures. The page's server runs
 * no worker (SKIFF_WORKER=false), so a deployment stays queued on the page until the test starts a second instance
 * with a worker on the same database: its status changes reach the page over graphql-ws (PostgreSQL NOTIFY across
 * instances), without polling or reload.
 */
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newId } from "../../src/db/ids.ts";
import type { RunningSkiff } from "../../src/server/start.ts";
import { deploymentsOf, seededApplication } from "../deployments/deploy-helpers.ts";
import { githubPushPayload, hubSignature } from "../deployments/push-payloads.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { drainJobs } from "../helpers/jobs.ts";
import { addMember, setPassword } from "../helpers/seed.ts";
import { startTestServer } from "../helpers/server.ts";
import { TEST_PASSWORD } from "../helpers/session.ts";
import { contextSignedIn, launchBrowser, SKIP_REASON, screenshot } from "./browser.ts";
import { ensureWebBuild } from "./web-build.ts";

const PORT = 4640;
const BASE = `http://127.0.0.1:${PORT}`;
const WAIT = { timeout: 20_000 };

/** POSTs `body` (raw) to `url` with `headers`; returns the status and the parsed JSON answer. */
async function post(url: string, body = "", headers: Record<string, string> = {}) {
  const res = await fetch(url, {
    method: "POST",
    headers: body ? { "content-type": "application/json", ...headers } : headers,
    body: body || undefined,
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as Record<string, unknown> | null };
}

/** A signed GitHub push of `ref` to `url`. */
function githubPush(url: string, secret: string, ref: string) {
  const raw = JSON.stringify(githubPushPayload({ ref, modified: ["src/index.ts"] }));
  return post(url, raw, { "x-github-event": "push", "x-hub-signature-256": hubSignature(secret, raw) });
}

describe.skipIf(SKIP_REASON !== null)("Settings → Deploy and the application page in Chromium", () => {
  let db: TestDatabase;
  let skiff: RunningSkiff;
  let worker: RunningSkiff | undefined;
  let browser: Browser;

  beforeAll(async () => {
    await ensureWebBuild();
    db = await createTestDatabase();
    skiff = await startTestServer(db.url, { PORT: String(PORT), SKIFF_BASE_URL: BASE, SKIFF_WORKER: "false" });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await worker?.stop();
    await skiff?.stop();
    await db?.drop();
  });

  async function signedIn(user: { userId: string; email: string }): Promise<BrowserContext> {
    await setPassword(db.knex, user.userId, TEST_PASSWORD);
    return contextSignedIn(browser, BASE, user.email);
  }

  /** The row of deployment `id` on the application page. */
  function deploymentRow(page: Page, id: string) {
    return page.locator(`tr[data-deployment-id="${id}"]`);
  }

  it("owner: copies and regenerates the deploy URL, sets push filters, deploys live; a member gets no controls", {
    timeout: 180_000,
  }, async () => {
    const app = await seededApplication(db.knex, {
      source: JSON.stringify({ dockerImage: "nginx:1.27", branch: "main" }),
    });
    const member = await addMember(db.knex, app.organizationId, "member");
    const context = await signedIn(app.owner);
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: BASE });
    const page = await context.newPage();

    // Settings → Deploy: the tree lists project → environment → application; choosing it opens its settings.
    await page.goto("/settings");
    await page.getByRole("link", { name: "Deploy settings" }).click();
    await page.waitForURL(/\/settings\/deploy$/, WAIT);
    const tree = page.getByRole("navigation", { name: "Applications" });
    await tree.getByText("production").waitFor(WAIT);
    await tree.getByRole("link", { name: "app-0", exact: true }).click();
    const panel = page.getByTestId("deploy-settings");
    const urlBox = panel.getByLabel("Deploy URL of app-0");
    await urlBox.waitFor(WAIT);
    const oldUrl = await urlBox.inputValue();
    expect(oldUrl).toMatch(new RegExp(`^${BASE}/api/deploy/[A-Za-z0-9_-]{43}$`));
    await screenshot(page, "deploy-settings");

    // Copy: the clipboard holds the URL, the button says so.
    await panel.getByRole("button", { name: "Copy deploy URL" }).click();
    await panel.getByRole("button", { name: "Copy deploy URL" }).getByText("Copied").waitFor(WAIT);
    expect(await page.evaluate("navigator.clipboard.readText()")).toBe(oldUrl);
    expect((await post(oldUrl)).status).toBe(202);

    // Regenerate behind a confirmation (reached with the keyboard): the old URL answers 404, the new one 202.
    await panel.getByRole("button", { name: "Regenerate deploy URL" }).focus();
    await page.keyboard.press("Enter");
    const confirm = panel.getByRole("group", { name: "Confirm regenerating the deploy URL" });
    await confirm.getByText("stops working at once").waitFor(WAIT);
    await confirm.getByRole("button", { name: "Confirm: regenerate" }).click();
    await panel.getByText("The previous URL no longer works.").waitFor(WAIT);
    await expect.poll(() => urlBox.inputValue(), WAIT).not.toBe(oldUrl);
    const newUrl = await urlBox.inputValue();
    expect(newUrl).toMatch(new RegExp(`^${BASE}/api/deploy/[A-Za-z0-9_-]{43}$`));
    expect((await post(oldUrl)).status).toBe(404);
    const viaApi = await post(newUrl, JSON.stringify({ title: "From CI" }));
    expect(viaApi.status).toBe(202);

    // The push webhook secret: created, shown once with a copy button.
    await panel.getByTestId("secret-state").filter({ hasText: "No secret is set" }).waitFor(WAIT);
    await panel.getByRole("button", { name: "Create webhook secret" }).click();
    const secretBox = panel.getByLabel("Push webhook secret of app-0");
    await secretBox.waitFor(WAIT);
    const secret = await secretBox.inputValue();
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    await panel.getByTestId("secret-state").filter({ hasText: "A secret is set" }).waitFor(WAIT);

    // Push filters: auto-deploy on, branch filter release/*, watch paths (one included, one excluded).
    const form = panel.getByRole("form", { name: "Push deploy settings" });
    await form.getByText("No watch paths: every change deploys.").waitFor(WAIT);
    await form.getByRole("checkbox", { name: /^Auto-deploy/ }).check();
    await form.getByLabel("Branch filter").fill("release/*");
    await form.getByRole("button", { name: "Add watch path" }).click();
    await form.getByLabel("Watch path 1", { exact: true }).fill("src/**");
    await form.getByRole("button", { name: "Add watch path" }).click();
    await form.getByLabel("Watch path 2", { exact: true }).fill("!src/**/*.md");
    await form.getByRole("button", { name: "Add watch path" }).click();
    await form.getByRole("button", { name: "Remove watch path 3" }).click();
    await form.getByLabel("Health check path").fill("/healthz");
    await form.getByRole("button", { name: "Save deploy settings" }).click();
    await form.getByText("Deploy settings saved.").waitFor(WAIT);
    const stored = await db.knex("applications").where({ id: app.applicationId }).first();
    expect(stored).toMatchObject({
      autoDeploy: true,
      branchFilter: "release/*",
      watchPaths: ["src/**", "!src/**/*.md"],
      healthPath: "/healthz",
    });
    await screenshot(page, "deploy-settings-saved");

    // A signed GitHub push of another branch does not deploy, and says why; one of a matching branch does.
    const other = await githubPush(newUrl, secret, "refs/heads/main");
    expect(other).toEqual({
      status: 200,
      body: { deployed: false, reason: 'branch "main" does not match "release/*"' },
    });
    const matching = await githubPush(newUrl, secret, "refs/heads/release/1.4");
    expect(matching.status).toBe(202);
    const pushed = matching.body!.deploymentId as string;

    // After a reload the settings are there, the secret is not shown again.
    await page.reload();
    await form.getByLabel("Branch filter").waitFor(WAIT);
    expect(await form.getByLabel("Branch filter").inputValue()).toBe("release/*");
    expect(await form.getByRole("checkbox", { name: /^Auto-deploy/ }).isChecked()).toBe(true);
    expect(await form.getByLabel("Watch path 2", { exact: true }).inputValue()).toBe("!src/**/*.md");
    expect(await panel.getByTestId("secret").count()).toBe(0);

    // The application page: the queued push deployment offers Cancel; cancelled, it offers Redeploy.
    await tree.getByRole("link", { name: "Deployments of app-0" }).click();
    await page.waitForURL(new RegExp(`/apps/${app.applicationId}$`), WAIT);
    const pushedRow = deploymentRow(page, pushed);
    await pushedRow.getByTestId("deployment-status").filter({ hasText: "Queued" }).waitFor(WAIT);
    await page.getByTestId("application-health").filter({ hasText: "Health unknown" }).waitFor(WAIT);
    await pushedRow.getByText("Git push").waitFor(WAIT);
    await pushedRow.getByText("commit 0d1a26e67d8f").waitFor(WAIT);
    expect(await pushedRow.getByRole("button", { name: /^Redeploy/ }).count()).toBe(0);
    // It ended in the meantime (no event reached the page yet): Cancel is refused, said in words.
    await db.knex("deployments").where({ id: pushed }).update({ status: "done" });
    await pushedRow.getByRole("button", { name: /^Cancel/ }).click();
    await pushedRow
      .getByRole("alert")
      .filter({ hasText: "only queued or running deployments can be cancelled" })
      .waitFor(WAIT);
    await db.knex("deployments").where({ id: pushed }).update({ status: "queued" });
    await pushedRow.getByRole("button", { name: /^Cancel/ }).click();
    await pushedRow.getByTestId("deployment-status").filter({ hasText: "Cancelled" }).waitFor(WAIT);
    await pushedRow.getByRole("button", { name: /^Redeploy/ }).waitFor(WAIT);
    await pushedRow.getByText("cancelled by a user").waitFor(WAIT);

    // Deploy (title typed, submitted with Enter): queued on the page while no worker runs.
    await page.evaluate(() => {
      (globalThis as unknown as { notReloaded: boolean }).notReloaded = true;
    });
    await page.getByLabel("Deployment title (optional)").fill("Release from the dashboard");
    await page.getByLabel("Deployment title (optional)").press("Enter");
    await page.getByText("Deployment “Release from the dashboard” queued.").waitFor(WAIT);
    const [manual] = await deploymentsOf(db.knex, app.applicationId).where({ title: "Release from the dashboard" });
    const row = deploymentRow(page, manual.id);
    await row.getByTestId("deployment-status").filter({ hasText: "Queued" }).waitFor(WAIT);
    await row.getByText("Manual").waitFor(WAIT);
    const log = page.getByTestId("deployment-log");
    await log.getByRole("heading", { name: "Log · Release from the dashboard" }).waitFor(WAIT);
    await log.getByText("No log lines yet.").waitFor(WAIT);
    await screenshot(page, "application-queued");

    // A worker on another instance runs it: the page sees running and done, and the log lines, live.
    worker = await startTestServer(db.url);
    await drainJobs(db.knex, 30_000);
    await row.getByTestId("deployment-status").filter({ hasText: "Done" }).waitFor(WAIT);
    await log.getByRole("log").getByText("dry run: nothing applied").waitFor(WAIT);
    await log.getByTestId("deployment-status").filter({ hasText: "Done" }).waitFor(WAIT);
    expect(await row.getAttribute("data-seen")).toBe("queued running done");
    await page.getByTestId("application-status").filter({ hasText: "Running" }).waitFor(WAIT);
    expect(await page.evaluate(() => (globalThis as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
    await row.getByRole("button", { name: "Redeploy Release from the dashboard" }).waitFor(WAIT);
    const [done] = await deploymentsOf(db.knex, app.applicationId).where({ id: manual.id });
    expect(done.status).toBe("done");
    await screenshot(page, "application-deployed");

    // An earlier deployment's stored log is read when selected.
    const apiRow = page.locator("tr[data-deployment-id]").filter({ hasText: "From CI" });
    await apiRow.getByText("Deploy URL").waitFor(WAIT);
    await apiRow.getByRole("button", { name: "Log of From CI" }).click();
    await log.getByRole("heading", { name: "Log · From CI" }).waitFor(WAIT);
    await log.getByText("superseded by a newer deployment").waitFor(WAIT);
    // Back to the deployed one: its stored lines are read and merged with the ones received live, each shown once.
    await row.getByRole("button", { name: "Log of Release from the dashboard" }).click();
    await log.getByRole("log").getByText("dry run: nothing applied").waitFor(WAIT);
    expect(await log.getByRole("log").getByText("dry run: nothing applied").count()).toBe(1);
    expect(await log.getByRole("log").getByText("deployment finished").count()).toBe(1);
    await context.close();

    // A member: the push filters read-only, no URL, no regenerate or save controls; Deploy is offered.
    const memberContext = await signedIn(member);
    const memberPage = await memberContext.newPage();
    await memberPage.goto(`/settings/deploy?app=${app.applicationId}`);
    const memberPanel = memberPage.getByTestId("deploy-settings");
    await memberPanel.getByText("Only owners and admins see the deploy URL.").waitFor(WAIT);
    await memberPanel.getByTestId("deploy-settings-view").getByText("release/*").waitFor(WAIT);
    await memberPanel.getByText("(excluded)").waitFor(WAIT);
    for (const name of [
      "Regenerate deploy URL",
      "Copy deploy URL",
      "Regenerate webhook secret",
      "Create webhook secret",
      "Save deploy settings",
    ]) {
      expect(await memberPage.getByRole("button", { name }).count(), name).toBe(0);
    }
    expect(await memberPage.getByLabel("Deploy URL of app-0").count()).toBe(0);
    await screenshot(memberPage, "deploy-settings-member");
    await memberPage.goto(`/apps/${app.applicationId}`);
    await memberPage.getByRole("button", { name: "Deploy", exact: true }).waitFor(WAIT);
    await memberPage.getByRole("link", { name: "Push settings" }).waitFor(WAIT);

    // An unknown application is said in words.
    await memberPage.goto(`/apps/${newId("application")}`);
    await memberPage
      .getByRole("alert")
      .filter({ hasText: /not found/i })
      .waitFor(WAIT);
    await memberContext.close();
  });
});
