/**
 * The active organization belongs to the session, not to a tab (docs/dashboard.md): a page never shows one
 * organization's name beside another's data — after a switch made in another tab (which the other tabs learn at
 * once), and on a deep link to an application of another of the person's organizations; a page re-read for a switch
 * made in another tab offers to switch back rather than doing it (else the tabs take turns switching).
 */
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { seededApplication } from "../deployments/deploy-helpers.ts";
import type { TestDatabase } from "../helpers/db.ts";
import { addMembership, createProjects } from "../helpers/seed.ts";
import { SKIP_REASON } from "./browser.ts";
import { useDashboardStack } from "./dashboard-stack.ts";

const PORT = 4647;
const WAIT = { timeout: 20_000 };

if (SKIP_REASON) console.warn(SKIP_REASON);

describe.skipIf(SKIP_REASON !== null)("the organization a page shows, across tabs, in Chromium", () => {
  const stack = useDashboardStack(PORT, { SKIFF_WORKER: "false" });
  let db: TestDatabase;
  beforeAll(() => {
    ({ db } = stack.started());
  });

  /** The organization the header's switcher names. */
  const headerOrg = (page: Page) => page.getByLabel("Organization").inputValue();

  it("a switch made in another tab re-reads the page, header included; a deep link switches to its organization", {
    timeout: 180_000,
  }, async () => {
    const a = await seededApplication(db.knex);
    const b = await seededApplication(db.knex);
    await addMembership(db.knex, b.organizationId, a.owner.userId, "owner");
    const [bExtra] = await createProjects(db.knex, b.organizationId, 1);
    const nameOf = async (table: string, id: string) =>
      (await db.knex(table).where({ id }).first("name")).name as string;
    const [aName, bName] = [
      await nameOf("organizations", a.organizationId),
      await nameOf("organizations", b.organizationId),
    ];

    const context = await stack.signedIn(a.owner);
    const tab1 = await context.newPage();
    await tab1.goto("/projects");
    await tab1.getByLabel("Organization").waitFor(WAIT);
    // Whichever organization the session starts in, both tabs start in A.
    if ((await headerOrg(tab1)) !== a.organizationId) {
      await tab1.getByLabel("Organization").selectOption(a.organizationId);
    }
    await tab1.locator(`li[data-project-id="${a.projectId}"]`).waitFor(WAIT);
    const tab2 = await context.newPage();
    await tab2.goto("/projects");
    await tab2.locator(`li[data-project-id="${a.projectId}"]`).waitFor(WAIT);
    expect(await headerOrg(tab2)).toBe(a.organizationId);

    // Tab 1 switches to B and says so to the other tabs: tab 2 reads at once, untouched, and shows B throughout,
    // saying why.
    await tab1.getByLabel("Organization").selectOption(b.organizationId);
    await tab1.locator(`li[data-project-id="${b.projectId}"]`).waitFor(WAIT);
    await tab2.locator(`li[data-project-id="${bExtra}"]`).waitFor(WAIT);
    expect(await headerOrg(tab2)).toBe(b.organizationId);
    await tab2
      .getByText(`The organization was switched in another tab or window: this page shows ${bName}.`)
      .waitFor(WAIT);
    expect(await tab2.locator(`li[data-project-id="${a.projectId}"]`).count()).toBe(0);
    await expect
      .poll(
        () => tab2.getByTestId("plan-usage").locator('tr[data-quota="projects"] [data-testid=used]').textContent(),
        WAIT,
      )
      .toBe("2");

    // The same on /import-sites: the heading follows the organization the list is read in.
    await tab2.goto("/import-sites");
    await tab2.getByRole("heading", { name: `Site imports · ${bName}` }).waitFor(WAIT);
    await tab1.getByLabel("Organization").selectOption(a.organizationId);
    await tab1.locator(`li[data-project-id="${a.projectId}"]`).waitFor(WAIT);
    // Any read of tab 2 (here the viewer's, on navigating within the page) finds A.
    await tab2.getByRole("link", { name: "Projects" }).click();
    await tab2.locator(`li[data-project-id="${a.projectId}"]`).waitFor(WAIT);
    expect(await headerOrg(tab2)).toBe(a.organizationId);

    // Deep links into B while A is active: the session switches to B, so header and application agree.
    const bApp = await nameOf("applications", b.applicationId);
    await tab2.goto(`/apps/${b.applicationId}`);
    await tab2.getByRole("heading", { name: bApp, exact: false }).first().waitFor(WAIT);
    await expect.poll(() => headerOrg(tab2), WAIT).toBe(b.organizationId);
    // The deep link's switch reaches tab 1 too, before it switches back.
    await expect.poll(() => headerOrg(tab1), WAIT).toBe(b.organizationId);
    await tab1.getByLabel("Organization").selectOption(a.organizationId);
    await tab1.locator(`li[data-project-id="${a.projectId}"]`).waitFor(WAIT);
    // Tab 2, re-read on B's application for tab 1's switch, offers the switch instead of switching back (the tabs
    // would take turns): both stay in A, and its button switches.
    const offer = tab2.getByRole("button", { name: `Switch to ${bName}` });
    await offer.waitFor(WAIT);
    expect(await headerOrg(tab2)).toBe(a.organizationId);
    await tab1.waitForTimeout(1000);
    expect(await headerOrg(tab1)).toBe(a.organizationId);
    expect(await tab1.locator(`li[data-project-id="${a.projectId}"]`).count()).toBe(1);
    await offer.click();
    await tab2.getByRole("heading", { name: bApp, exact: false }).first().waitFor(WAIT);
    await expect.poll(() => headerOrg(tab2), WAIT).toBe(b.organizationId);
    await expect.poll(() => headerOrg(tab1), WAIT).toBe(b.organizationId);
    // A switch in the page's own switcher holds as well: the page offers the switch back.
    await tab2.getByLabel("Organization").selectOption(a.organizationId);
    await offer.waitFor(WAIT);
    await expect.poll(() => headerOrg(tab1), WAIT).toBe(a.organizationId);
    await tab2.waitForTimeout(1000);
    expect(await headerOrg(tab2)).toBe(a.organizationId);
    await offer.click();
    await expect.poll(() => headerOrg(tab2), WAIT).toBe(b.organizationId);
    await expect.poll(() => headerOrg(tab1), WAIT).toBe(b.organizationId);
    await tab1.getByLabel("Organization").selectOption(a.organizationId);
    await tab1.locator(`li[data-project-id="${a.projectId}"]`).waitFor(WAIT);
    await tab2.goto(`/settings/deploy?app=${b.applicationId}`);
    await tab2.getByRole("heading", { name: `Deploy settings · ${bName}` }).waitFor(WAIT);
    expect(await headerOrg(tab2)).toBe(b.organizationId);
    expect(aName).not.toBe(bName);
    await context.close();
  });
});
