/**
 * Settings → Webhooks in a real browser: Debian's Chromium through playwright-core against a
 * real Skiff on loopback (fixed port 4541 so SKIFF_BASE_URL and the page origin agree), real PostgreSQL, a real
 * loopback HTTPS receiver (allowed by SKIFF_OUTBOUND_ALLOW, trusted through the test CA). An owner creates an
 * endpoint (secret shown once), sends a test ping that succeeds in the log, edits, regenerates, redelivers and
 * deletes; a member sees no Webhooks section; a plan without `webhooks` shows the FORBIDDEN message. A refused URL
 * is said under its field (aria-invalid, aria-describedby); Edit and Delete take focus, Escape cancels them.
 */
import { createHmac } from "node:crypto";
import type { Browser, BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningSkiff } from "../../src/server/start.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { type HttpsReceiver, startHttpsReceiver } from "../helpers/https-receiver.ts";
import { addMember, createOrg, setPassword } from "../helpers/seed.ts";
import { startTestServer } from "../helpers/server.ts";
import { TEST_PASSWORD } from "../helpers/session.ts";
import { contextSignedIn, focused, launchBrowser, SKIP_REASON, screenshot } from "./browser.ts";
import { ensureWebBuild } from "./web-build.ts";

const PORT = 4541;
const BASE = `http://127.0.0.1:${PORT}`;
const WAIT = { timeout: 20_000 };

describe.skipIf(SKIP_REASON !== null)("Settings → Webhooks in Chromium", () => {
  let db: TestDatabase;
  let skiff: RunningSkiff;
  let browser: Browser;
  let receiver: HttpsReceiver;

  beforeAll(async () => {
    await ensureWebBuild();
    receiver = await startHttpsReceiver();
    db = await createTestDatabase();
    skiff = await startTestServer(db.url, {
      PORT: String(PORT),
      SKIFF_BASE_URL: BASE,
      SKIFF_OUTBOUND_ALLOW: "127.0.0.1",
    });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await skiff?.stop();
    await receiver?.close();
    await db?.drop();
  });

  /** Gives `user` the test password and returns a browser context signed in as them. */
  async function signedIn(user: { userId: string; email: string }): Promise<BrowserContext> {
    await setPassword(db.knex, user.userId, TEST_PASSWORD);
    return contextSignedIn(browser, BASE, user.email);
  }

  it("owner: creates an endpoint (secret once), sends a test that succeeds in the log, edits, regenerates, redelivers, deletes; a member sees no Webhooks", {
    timeout: 120_000,
  }, async () => {
    const { organizationId, owner } = await createOrg(db.knex, "plan_pro");
    const member = await addMember(db.knex, organizationId, "member");
    const context = await signedIn(owner);
    const page = await context.newPage();
    await page.goto("/settings");
    const section = page.getByRole("region", { name: "Webhooks" });
    await section.getByText("No endpoints yet.").waitFor(WAIT);

    // Create: URL and events picked by category (one event, and a whole category with its toggle).
    const url = `${receiver.url}/hooks/dash`;
    await section.getByLabel("Endpoint URL").fill(url);
    await section.getByRole("checkbox", { name: "course_completed", exact: true }).check();
    await section.getByRole("button", { name: "Add endpoint" }).click();
    const secretBox = section.getByLabel(`Signing secret of ${url}`);
    await secretBox.waitFor(WAIT);
    const secret = await secretBox.inputValue();
    expect(secret).toMatch(/^whsec_/);
    const row = section.locator("tr[data-webhook-id]").filter({ hasText: url });
    await row.getByTestId("active").filter({ hasText: "Active" }).waitFor(WAIT);
    await row.getByText("1 event").waitFor(WAIT);
    const [stored] = await db.knex("webhook_endpoints").where({ organization_id: organizationId }).select("*");
    expect(stored.url).toBe(url);
    await screenshot(page, "settings-webhooks-created");

    // Send test: the outcome is said in words, the receiver got a ping signed with the shown secret.
    await row.getByRole("button", { name: `Send test to ${url}` }).click();
    await row.getByRole("status").filter({ hasText: "Test ping delivered: HTTP 200" }).waitFor(WAIT);
    const [ping] = await receiver.waitForRequests(1);
    expect(ping!.headers["x-webhook-event"]).toBe("ping");
    const expected = `sha256=${createHmac("sha256", secret).update(ping!.body).digest("hex")}`;
    expect(ping!.headers["x-webhook-signature"]).toBe(expected);

    // The delivery log: the ping's attempt 1, success, HTTP 200.
    await row.getByRole("button", { name: `Deliveries of ${url}` }).click();
    const log = page.getByTestId("delivery-log");
    const entry = log.locator("tbody tr").first();
    await entry.getByText("ping").waitFor(WAIT);
    await entry.getByTestId("outcome").filter({ hasText: "Success" }).waitFor(WAIT);
    await entry.getByRole("cell", { name: "200", exact: true }).waitFor(WAIT);
    await entry.getByText("1 of 3").waitFor(WAIT);
    await screenshot(page, "settings-webhooks");

    // The secret is not shown again after a reload.
    await page.reload();
    await section.locator("tr[data-webhook-id]").first().waitFor(WAIT);
    expect(await page.getByTestId("secret").count()).toBe(0);

    // Redeliver from the log (opened with the keyboard): a second request with the same delivery id.
    await row.getByRole("button", { name: `Deliveries of ${url}` }).focus();
    await page.keyboard.press("Enter");
    await log
      .getByRole("button", { name: /^Redeliver ping/ })
      .first()
      .click();
    await log.getByText(/Redelivery of dlv_[0-9a-f]{16} queued/).waitFor(WAIT);
    const [, again] = await receiver.waitForRequests(2, 15_000);
    expect(again!.headers["x-webhook-delivery"]).toBe(ping!.headers["x-webhook-delivery"]);
    await log.locator("tbody tr").nth(1).waitFor(WAIT);

    // Edit: deactivate and subscribe to a second event; the row says Inactive, 2 events.
    await row.getByRole("button", { name: `Edit ${url}` }).click();
    const edit = row.getByRole("form", { name: `Edit ${url}` });
    await edit.getByLabel(/^Active/).uncheck();
    await edit.getByRole("checkbox", { name: "user_signed_up", exact: true }).check();
    await edit.getByRole("button", { name: "Save changes" }).click();
    await row.getByTestId("active").filter({ hasText: "Inactive" }).waitFor(WAIT);
    await row.getByText("2 events").waitFor(WAIT);
    const [updated] = await db.knex("webhook_endpoints").where({ organization_id: organizationId }).select("*");
    expect(updated.isActive).toBe(false);

    // Regenerate: a new secret, shown once, different from the first.
    await row.getByRole("button", { name: `Regenerate secret of ${url}` }).click();
    const fresh = await row.getByLabel(`New signing secret of ${url}`).inputValue();
    expect(fresh).toMatch(/^whsec_/);
    expect(fresh).not.toBe(secret);

    // A failing receiver: the test outcome says so in words (also to an inactive endpoint), signed with the new secret.
    receiver.respond({ status: 500, body: "boom" });
    const before = receiver.requests.length;
    await row.getByRole("button", { name: `Send test to ${url}` }).click();
    await row
      .getByRole("status")
      .filter({ hasText: /Test ping failed: .*500/ })
      .waitFor(WAIT);
    const failedPing = receiver.requests[before]!;
    expect(failedPing.headers["x-webhook-signature"]).toBe(
      `sha256=${createHmac("sha256", fresh).update(failedPing.body).digest("hex")}`,
    );
    await log.locator("tbody tr").first().getByTestId("outcome").filter({ hasText: "Failed" }).waitFor(WAIT);
    await screenshot(page, "settings-webhooks-failed-test");
    receiver.respond({});

    // Delete (with confirmation): the row leaves the page and the database.
    await row.getByRole("button", { name: `Delete ${url}` }).click();
    await row.getByRole("button", { name: "Confirm delete" }).click();
    await section.getByText("No endpoints yet.").waitFor(WAIT);
    const left = await db.knex("webhook_endpoints").where({ organization_id: organizationId }).count({ n: "*" });
    expect(Number(left[0]?.n)).toBe(0);
    await context.close();

    // A member of the same organization sees the settings page without a Webhooks section.
    const memberContext = await signedIn(member);
    const memberPage = await memberContext.newPage();
    await memberPage.goto("/settings");
    await memberPage.getByRole("heading", { name: "Team" }).waitFor(WAIT);
    expect(await memberPage.getByRole("heading", { name: "Webhooks" }).count()).toBe(0);
    await memberContext.close();
  });

  it("a refused URL is said under its field, not in a form alert; Edit and Delete take focus and Escape cancels them", {
    timeout: 90_000,
  }, async () => {
    const { organizationId, owner } = await createOrg(db.knex, "plan_pro");
    const context = await signedIn(owner);
    const page = await context.newPage();
    await page.goto("/settings");
    const section = page.getByRole("region", { name: "Webhooks" });
    await section.getByText("No endpoints yet.").waitFor(WAIT);
    const add = section.getByRole("form", { name: "Add a webhook endpoint" });

    /** The URL input of `form`: aria-invalid, and the text its aria-describedby points at. */
    const urlField = async (form: typeof add) => {
      const input = form.getByLabel("Endpoint URL");
      const described = await input.getAttribute("aria-describedby");
      return {
        invalid: await input.getAttribute("aria-invalid"),
        says: described ? await page.locator(`[id="${described}"]`).textContent() : null,
      };
    };

    // Add: http:// and a blocked host are each refused under the URL field; no form-level alert repeats them.
    await add.getByLabel("Endpoint URL").fill("http://example.com/hooks");
    await add.getByRole("checkbox", { name: "course_completed", exact: true }).check();
    await add.getByRole("button", { name: "Add endpoint" }).click();
    await add.getByRole("alert").filter({ hasText: "Must be an absolute https:// URL" }).waitFor(WAIT);
    expect(await urlField(add)).toEqual({ invalid: "true", says: expect.stringContaining("https://") });
    expect(await section.getByText(/Invalid input/).count()).toBe(0);
    await add.getByLabel("Endpoint URL").fill("https://localhost/hooks");
    await add.getByRole("button", { name: "Add endpoint" }).click();
    await add.getByRole("alert").filter({ hasText: "localhost" }).waitFor(WAIT);
    expect((await urlField(add)).invalid).toBe("true");
    expect(await section.getByRole("alert").count()).toBe(1);
    await screenshot(page, "settings-webhooks-url-refused");

    // A good endpoint to edit and delete.
    const url = `${receiver.url}/hooks/focus`;
    await add.getByLabel("Endpoint URL").fill(url);
    await add.getByRole("button", { name: "Add endpoint" }).click();
    const row = section.locator("tr[data-webhook-id]").filter({ hasText: url });
    await row.waitFor(WAIT);
    expect(await urlField(add)).toEqual({ invalid: null, says: "Public https:// address" });

    // Edit: the form's URL field takes focus; a refused URL goes under it; Escape closes it and focus is back on Edit.
    await row.getByRole("button", { name: `Edit ${url}` }).click();
    const edit = row.getByRole("form", { name: `Edit ${url}` });
    await edit.waitFor(WAIT);
    await expect.poll(async () => (await focused(page)).form).toBe(`Edit ${url}`);
    expect((await focused(page)).tag).toBe("input");
    await edit.getByLabel("Endpoint URL").fill("http://example.com/edited");
    await edit.getByRole("button", { name: "Save changes" }).click();
    await edit.getByRole("alert").filter({ hasText: "Must be an absolute https:// URL" }).waitFor(WAIT);
    expect(await urlField(edit)).toEqual({ invalid: "true", says: expect.stringContaining("https://") });
    expect(await edit.getByText(/Invalid input/).count()).toBe(0);
    await edit.getByLabel("Endpoint URL").press("Escape");
    await edit.waitFor({ state: "detached", ...WAIT });
    expect((await focused(page)).label).toBe(`Edit ${url}`);
    const [stored] = await db.knex("webhook_endpoints").where({ organization_id: organizationId }).select("url");
    expect(stored.url).toBe(url);

    // Delete: the confirmation takes focus; Escape keeps the endpoint and gives focus back to Delete.
    await row.getByRole("button", { name: `Delete ${url}` }).click();
    const confirm = row.getByRole("group", { name: `Confirm deleting ${url}` });
    await confirm.waitFor(WAIT);
    await expect.poll(async () => (await focused(page)).group).toBe(`Confirm deleting ${url}`);
    await page.keyboard.press("Escape");
    await confirm.waitFor({ state: "detached", ...WAIT });
    expect((await focused(page)).label).toBe(`Delete ${url}`);
    await row.getByRole("button", { name: `Delete ${url}` }).click();
    await confirm.getByRole("button", { name: "Confirm delete" }).click();
    await section.getByText("No endpoints yet.").waitFor(WAIT);
    await context.close();
  });

  it("a plan without the webhooks feature shows the FORBIDDEN message naming the feature", {
    timeout: 60_000,
  }, async () => {
    const { owner } = await createOrg(db.knex, "plan_free");
    const context = await signedIn(owner);
    const page = await context.newPage();
    await page.goto("/settings");
    const section = page.getByRole("region", { name: "Webhooks" });
    await section.getByRole("alert").filter({ hasText: "plan feature “webhooks”" }).waitFor(WAIT);
    expect(await section.getByLabel("Endpoint URL").count()).toBe(0);
    await screenshot(page, "settings-webhooks-forbidden");
    await context.close();
  });
});
