/**
 * The dashboard on a 375 px wide screen, in a real browser (Debian's Chromium through playwright-core) against a
 * real Skiff on loopback and real PostgreSQL: a table wider than the screen scrolls inside its own box
 * (`.table-scroll`), so the page itself never scrolls sideways — settings (API keys, members, webhooks), the audit
 * log, the account's sessions, an application's deployments and the projects' plan usage.
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newId } from "../../src/db/ids.ts";
import type { RunningSkiff } from "../../src/server/start.ts";
import { seededApplication } from "../deployments/deploy-helpers.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { freePort } from "../helpers/free-port.ts";
import { addMember, setPassword } from "../helpers/seed.ts";
import { startTestServer } from "../helpers/server.ts";
import { TEST_PASSWORD } from "../helpers/session.ts";
import { contextSignedIn, launchBrowser, SKIP_REASON, screenshot } from "./browser.ts";
import { ensureWebBuild } from "./web-build.ts";

const WAIT = { timeout: 20_000 };
const NARROW = { width: 375, height: 800 };

/** How far the page scrolls sideways: the document's scroll width and the window's inner width. */
function pageWidth(page: Page) {
  return page.evaluate(() => {
    const g = globalThis as unknown as { document: { documentElement: { scrollWidth: number } }; innerWidth: number };
    return { scrollWidth: g.document.documentElement.scrollWidth, innerWidth: g.innerWidth };
  });
}

describe.skipIf(SKIP_REASON !== null)("the dashboard at 375 px in Chromium", () => {
  let db: TestDatabase;
  let skiff: RunningSkiff;
  let browser: Browser;
  let base: string;

  beforeAll(async () => {
    await ensureWebBuild();
    db = await createTestDatabase();
    base = `http://127.0.0.1:${await freePort()}`;
    skiff = await startTestServer(db.url, { PORT: new URL(base).port, SKIFF_BASE_URL: base, SKIFF_WORKER: "false" });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await skiff?.stop();
    await db?.drop();
  });

  it("no page scrolls sideways: wide tables scroll in their own box", { timeout: 120_000 }, async () => {
    const app = await seededApplication(db.knex);
    await setPassword(db.knex, app.owner.userId, TEST_PASSWORD);
    await addMember(db.knex, app.organizationId, "member");
    for (const status of ["done", "error", "queued"]) {
      await db.knex("deployments").insert({
        id: newId("deployment"),
        application_id: app.applicationId,
        status,
        title: `A deployment with a long title, ${status}`,
        trigger: "api",
      });
    }
    const context = await contextSignedIn(browser, base, app.owner.email);
    const page = await context.newPage();
    await page.setViewportSize(NARROW);

    /** Expects the page not to scroll sideways; a screenshot names it. */
    const fits = async (name: string) => {
      await screenshot(page, `narrow-${name}`);
      const { scrollWidth, innerWidth } = await pageWidth(page);
      expect(scrollWidth, `${name}: page width ${scrollWidth} at ${innerWidth} px`).toBeLessThanOrEqual(innerWidth);
    };

    // Settings: an API key made on the page (its Delete button in the table), members, the webhook form's events.
    await page.goto("/settings");
    const keys = page.getByRole("region", { name: "API keys" });
    await keys.getByLabel("Key name").fill("deploy-from-the-ci-pipeline");
    await keys.getByRole("button", { name: "Create key" }).click();
    await keys.getByLabel("New API key").waitFor(WAIT);
    await keys.getByRole("button", { name: /^Delete key deploy-from-the-ci-pipeline/ }).waitFor(WAIT);
    await page.getByRole("region", { name: "Webhooks" }).getByText("No endpoints yet.").waitFor(WAIT);
    await fits("settings");
    // The table's own box scrolls instead, when it is wider than the screen.
    const box = await keys
      .locator(".table-scroll")
      .evaluate((el) => ({ client: el.clientWidth, scroll: el.scrollWidth }));
    expect(box.client).toBeLessThanOrEqual(NARROW.width);

    await page.goto("/settings/audit");
    await page.getByRole("table", { name: "Audit entries" }).locator("tbody tr").first().waitFor(WAIT);
    await fits("audit");

    await page.goto("/account");
    await page.getByRole("region", { name: "Sessions" }).locator("tr[data-session-id]").first().waitFor(WAIT);
    await fits("account");

    await page.goto(`/apps/${app.applicationId}`);
    await page.getByText("A deployment with a long title, queued").first().waitFor(WAIT);
    await fits("application");

    await page.goto("/projects");
    await page.getByRole("table", { name: "Usage against the plan's limits" }).waitFor(WAIT);
    await fits("projects");
    await context.close();
  });
});
