/**
 * The audit log page (`/settings/audit`) in a real browser: Debian's Chromium through playwright-core against a real
 * Skiff on loopback (fixed port 4750 so SKIFF_BASE_URL and the page origin agree) and real PostgreSQL. An owner sees
 * the entries of changes made through the API (actor, surface, action, target), filters them by action, and the
 * export link carries the filters; the page passes axe-core; a member sees the refusal in words.
 */
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestDatabase } from "../helpers/db.ts";
import { addMember, createOrg, setPassword } from "../helpers/seed.ts";
import { gql } from "../helpers/server.ts";
import { TEST_PASSWORD } from "../helpers/session.ts";
import { contextSignedIn, expectAccessible, SKIP_REASON, screenshot } from "./browser.ts";
import { type DashboardStack, startDashboardStack } from "./dashboard-stack.ts";

const PORT = 4750;
const BASE = `http://127.0.0.1:${PORT}`;
const WAIT = { timeout: 20_000 };

describe.skipIf(SKIP_REASON !== null)("Audit log page in Chromium", () => {
  let db: TestDatabase;
  let browser: Browser;

  let stack: DashboardStack | undefined;

  beforeAll(async () => {
    stack = await startDashboardStack(PORT);
    ({ db, browser } = stack);
  }, 300_000);
  afterAll(async () => {
    await stack?.stop();
  });

  it("owner: reads the entries of API changes, filters by action, exports; a member is refused", {
    timeout: 120_000,
  }, async () => {
    const { organizationId, owner } = await createOrg(db.knex);
    const member = await addMember(db.knex, organizationId, "member");
    const created = await gql<{ createProject: { id: string } }>(
      BASE,
      `mutation($org: ID!) { createProject(input: { organizationId: $org, name: "audited" }) { id } }`,
      { org: organizationId },
      { apiKey: owner.apiKey },
    );
    expect(created.errors).toBeUndefined();
    const renamed = await gql(
      BASE,
      `mutation($org: ID!) { renameOrganization(id: $org, name: "Audited Org") { id } }`,
      { org: organizationId },
      { apiKey: owner.apiKey },
    );
    expect(renamed.errors).toBeUndefined();

    await setPassword(db.knex, owner.userId, TEST_PASSWORD);
    const context = await contextSignedIn(browser, BASE, owner.email);
    const page = await context.newPage();
    await page.goto("/settings/audit");
    await page.getByRole("heading", { name: "Audit log", level: 1 }).waitFor(WAIT);
    const table = page.getByRole("table", { name: "Audit entries" });
    const createRow = table.getByRole("row").filter({ hasText: "createProject" });
    await createRow.waitFor(WAIT);
    expect(await createRow.textContent()).toContain(organizationId);
    expect(await createRow.textContent()).toContain(owner.userId);
    expect(await createRow.textContent()).toContain("via api key");
    await table.getByRole("row").filter({ hasText: "renameOrganization" }).waitFor(WAIT);
    await expectAccessible(page, "/settings/audit");
    await screenshot(page, "audit-log");

    await page.getByLabel("Action").fill("createProject");
    await page.getByRole("button", { name: "Apply filters" }).click();
    await expect
      .poll(async () => table.getByRole("row").filter({ hasText: "renameOrganization" }).count(), WAIT)
      .toBe(0);
    expect(await table.getByRole("row").filter({ hasText: "createProject" }).count()).toBe(1);
    const href = await page.getByRole("link", { name: "Export these entries (NDJSON)" }).getAttribute("href");
    expect(href).toBe("/api/audit-events/export?action=createProject");
    const exported = await page.request.get(`${BASE}${href}`);
    expect(exported.status()).toBe(200);
    const lines = (await exported.text()).trim().split("\n");
    expect(lines).toHaveLength(1);
    // The entry names the organization the call named and the project it created.
    const entry = JSON.parse(lines[0]!) as { action: string; targetIds: string[] };
    expect(entry.action).toBe("createProject");
    expect(entry.targetIds).toEqual(expect.arrayContaining([organizationId, created.data!.createProject.id]));
    await context.close();

    await setPassword(db.knex, member.userId, TEST_PASSWORD);
    const memberContext = await contextSignedIn(browser, BASE, member.email);
    const memberPage = await memberContext.newPage();
    await memberPage.goto("/settings/audit");
    await memberPage.getByRole("alert").filter({ hasText: "audit:read" }).waitFor(WAIT);
    await memberContext.close();
  });
  it("a member sees no Audit log or Docs theme link and no filter form; an owner sees both links", {
    timeout: 120_000,
  }, async () => {
    const { organizationId, owner } = await createOrg(db.knex);
    const member = await addMember(db.knex, organizationId, "member");
    await setPassword(db.knex, member.userId, TEST_PASSWORD);
    const memberContext = await contextSignedIn(browser, BASE, member.email);
    const memberPage = await memberContext.newPage();
    await memberPage.goto("/settings/audit");
    await memberPage.getByRole("alert").filter({ hasText: "audit:read" }).waitFor(WAIT);
    const nav = memberPage.getByRole("navigation", { name: "Main" });
    await nav.getByRole("link", { name: "Projects" }).waitFor(WAIT);
    expect(await nav.getByRole("link", { name: "Audit log" }).count()).toBe(0);
    expect(await nav.getByRole("link", { name: "Docs theme" }).count()).toBe(0);
    expect(await memberPage.getByRole("button", { name: "Apply filters" }).count()).toBe(0);
    expect(await memberPage.getByLabel("Action").count()).toBe(0);
    await memberContext.close();

    await setPassword(db.knex, owner.userId, TEST_PASSWORD);
    const context = await contextSignedIn(browser, BASE, owner.email);
    const page = await context.newPage();
    await page.goto("/settings/audit");
    const ownerNav = page.getByRole("navigation", { name: "Main" });
    await ownerNav.getByRole("link", { name: "Audit log" }).waitFor(WAIT);
    await ownerNav.getByRole("link", { name: "Docs theme" }).waitFor(WAIT);
    await page.getByRole("button", { name: "Apply filters" }).waitFor(WAIT);
    await context.close();
  });

  it("a From after Until is refused under Until in the labels' words, once", { timeout: 60_000 }, async () => {
    const { owner } = await createOrg(db.knex);
    await setPassword(db.knex, owner.userId, TEST_PASSWORD);
    const context = await contextSignedIn(browser, BASE, owner.email);
    const page = await context.newPage();
    await page.goto("/settings/audit");
    await page.getByLabel("From").fill("2026-03-02T10:00");
    await page.getByLabel("Until").fill("2026-03-01T10:00");
    await page.getByRole("button", { name: "Apply filters" }).click();
    const until = page.getByLabel("Until");
    await expect.poll(() => until.getAttribute("aria-invalid"), WAIT).toBe("true");
    expect(await page.locator(`[id="${await until.getAttribute("aria-describedby")}"]`).textContent()).toBe(
      "From must be before Until.",
    );
    await page.waitForTimeout(300);
    const text = (await page.locator("main").textContent()) ?? "";
    expect(text).not.toContain("since");
    expect(text.split("From must be before Until").length - 1).toBe(1);
    await context.close();
  });
});
