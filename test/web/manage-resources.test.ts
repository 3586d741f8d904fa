/**
 * The dashboard's management of databases, environment names, domains and sources, in a real browser: Debian's
 * Chromium through playwright-core against a real Skiff on loopback (port 4643, below the ephemeral range, so
 * SKIFF_BASE_URL and the page origin agree), real PostgreSQL. On /projects: add a database (its generated password
 * shown once, and equal to the application's `DB_PASSWORD`), rotate it (a new one shown once, the variable follows),
 * delete it behind a confirmation naming what goes, rename an environment. On the application page: edit a domain's
 * port and HTTPS, change the source type (a refused field said under it). Every change is checked in the database;
 * axe-core finds nothing serious or critical; the pages carry the dashboard's CSP and report no violation of it.
 */
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSecretBox } from "../../src/db/secrets.ts";
import { DASHBOARD_CSP } from "../../src/server/web.ts";
import { addDomain, seededApplication } from "../deployments/deploy-helpers.ts";
import type { TestDatabase } from "../helpers/db.ts";
import { createRegistry, setPassword, TEST_SECRET } from "../helpers/seed.ts";
import { TEST_PASSWORD } from "../helpers/session.ts";
import { contextSignedIn, expectAccessible, SKIP_REASON, screenshot } from "./browser.ts";
import { type DashboardStack, startDashboardStack } from "./dashboard-stack.ts";

const PORT = 4643;
const BASE = `http://127.0.0.1:${PORT}`;
const WAIT = { timeout: 20_000 };
const box = createSecretBox(TEST_SECRET);

if (SKIP_REASON) console.warn(SKIP_REASON);

describe.skipIf(SKIP_REASON !== null)("managing databases, environments, domains and sources in Chromium", () => {
  let db: TestDatabase;
  let browser: Browser;
  const cspViolations: string[] = [];

  let stack: DashboardStack | undefined;

  beforeAll(async () => {
    stack = await startDashboardStack(PORT, { SKIFF_WORKER: "false" });
    ({ db, browser } = stack);
  });
  afterAll(async () => {
    await stack?.stop();
  });

  /** A page signed in as `user`, recording CSP violations reported to the console. */
  async function pageAs(user: { userId: string; email: string }): Promise<{ context: BrowserContext; page: Page }> {
    await setPassword(db.knex, user.userId, TEST_PASSWORD);
    const context = await contextSignedIn(browser, BASE, user.email);
    const page = await context.newPage();
    page.on("console", (m) => {
      if (/Content.Security.Policy/i.test(m.text())) cspViolations.push(m.text());
    });
    return { context, page };
  }

  /** Decrypted variables of `applicationId`, by key. */
  async function variablesOf(applicationId: string): Promise<Record<string, string>> {
    const rows = await db.knex("environment_variables").where({ application_id: applicationId });
    return Object.fromEntries(rows.map((r) => [r.key, box.decrypt(r.valueEncrypted)]));
  }

  it("/projects: adds a database (password shown once), rotates and deletes it, renames an environment", {
    timeout: 180_000,
  }, async () => {
    const app = await seededApplication(db.knex);
    const appName = (await db.knex("applications").where({ id: app.applicationId }).first("name")).name as string;
    const { context, page } = await pageAs(app.owner);
    const res = await page.goto("/projects");
    expect(res?.headers()["content-security-policy"]).toBe(DASHBOARD_CSP);
    const project = page.getByTestId("project-tree").locator(`li[data-project-id="${app.projectId}"]`);
    await project.getByText("No databases.").waitFor(WAIT);

    // Add: the generated password is shown once and is what the chosen application gets.
    const add = project.getByRole("form", { name: "Add a database to production" });
    await add.getByLabel("Engine").selectOption("postgres");
    await add.getByLabel("Database name").fill("shop");
    await add.getByLabel("Database user").fill("shop");
    await add.getByRole("checkbox", { name: appName }).check();
    await add.getByRole("button", { name: "Add database" }).click();
    const shown = add.getByTestId("secret");
    await shown.waitFor(WAIT);
    const first = await shown.inputValue();
    expect(first).toMatch(/^[A-Za-z0-9]{32}$/);
    const stored = await db.knex("databases").where({ project_id: app.projectId }).first();
    expect(stored).toMatchObject({ name: "shop", username: "shop", type: "postgres" });
    expect(box.decrypt(stored.passwordEncrypted)).toBe(first);
    expect((await variablesOf(app.applicationId)).DB_PASSWORD).toBe(first);
    const item = project.locator(`li[data-database-id="${stored.id}"]`);
    await item.getByText(stored.serviceHost).waitFor(WAIT);
    await screenshot(page, "projects-database-created");

    // Rotate: a new password, shown once; the application's derived variables follow.
    await item.getByRole("button", { name: "Rotate the password of database shop" }).click();
    const rotated = item.getByTestId("secret");
    await rotated.waitFor(WAIT);
    const second = await rotated.inputValue();
    expect(second).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(second).not.toBe(first);
    await item.getByText(`the variables of ${appName} follow`).waitFor(WAIT);
    const vars = await variablesOf(app.applicationId);
    expect(vars.DB_PASSWORD).toBe(second);
    expect(vars.DATABASE_URL).toContain(`:${second}@`);
    await expectAccessible(page, "/projects (databases)");

    // Shown once: a fresh read of the page does not show it again.
    await page.reload();
    await item.waitFor(WAIT);
    expect(await page.getByTestId("secret").count()).toBe(0);
    expect(await page.content()).not.toContain(second);

    // Delete: the confirmation says the data and the automatic variables go.
    await item.getByRole("button", { name: "Delete database shop" }).click();
    const confirm = item.getByRole("group", { name: "Confirm deleting database shop" });
    await confirm.getByText("and all its data").waitFor(WAIT);
    await confirm.getByText(/DB_PASSWORD, DATABASE_URL/).waitFor(WAIT);
    await screenshot(page, "projects-database-delete");
    await confirm.getByRole("button", { name: "Confirm: delete database shop" }).click();
    await project.getByText("No databases.").waitFor(WAIT);
    expect(await db.knex("databases").where({ id: stored.id })).toEqual([]);
    expect(Object.keys(await variablesOf(app.applicationId)).filter((k) => k.startsWith("DB_"))).toEqual([]);

    // Rename an environment; a refused name is said, a good one is stored.
    await project.getByRole("button", { name: "Rename environment production" }).click();
    const rename = project.getByRole("form", { name: "Rename environment production" });
    await rename.getByLabel("New name").fill("-bad name");
    await rename.getByRole("button", { name: "Save name" }).click();
    await rename.getByRole("alert").waitFor(WAIT);
    await rename.getByLabel("New name").fill("live");
    await rename.getByRole("button", { name: "Save name" }).click();
    await project.getByRole("button", { name: "Rename environment live" }).waitFor(WAIT);
    expect(await db.knex("environments").where({ project_id: app.projectId }).pluck("name")).toEqual(["live"]);
    await expectAccessible(page, "/projects (renamed environment)");
    await context.close();
  });

  it("application page: edits a domain's port and HTTPS, changes the source type", { timeout: 180_000 }, async () => {
    const app = await seededApplication(db.knex);
    await createRegistry(db.knex, app.organizationId);
    const host = `edit-${app.applicationId.slice(-8)}.example.test`;
    await addDomain(db.knex, app.organizationId, app.applicationId, host, true);
    const { context, page } = await pageAs(app.owner);
    const res = await page.goto(`/apps/${app.applicationId}`);
    expect(res?.headers()["content-security-policy"]).toBe(DASHBOARD_CSP);

    // Domain: port 8443 without HTTPS; then back to the application's port.
    const row = page.getByRole("region", { name: "Domains" }).locator(`tr[data-domain="${host}"]`);
    await row.getByRole("button", { name: `Edit ${host}` }).click();
    const edit = row.getByRole("form", { name: `Edit ${host}` });
    await edit.getByLabel(`Port of ${host}`).fill("8443");
    await edit.getByRole("checkbox", { name: /HTTPS/ }).uncheck();
    await edit.getByRole("button", { name: `Save ${host}` }).click();
    await row.getByTestId("domain-https").filter({ hasText: "HTTP only" }).waitFor(WAIT);
    await row.getByText("8443").waitFor(WAIT);
    expect(await db.knex("domains").where({ host }).first("port", "https")).toEqual({ port: 8443, https: false });
    await page.getByTestId("needs-deployment").waitFor(WAIT);
    await row.getByRole("button", { name: `Edit ${host}` }).click();
    await edit.getByLabel(`Port of ${host}`).fill("");
    await edit.getByRole("button", { name: `Save ${host}` }).click();
    await row.getByText("(application port)").waitFor(WAIT);
    expect((await db.knex("domains").where({ host }).first("port")).port).toBeNull();

    // Source: docker → git; a refused URL is said under its field, nothing stored; then a good one.
    const change = page.getByRole("form", { name: "Change source" });
    await change.getByLabel("Source type").selectOption("git");
    await change.getByLabel("Clone URL").fill("ftp://nope");
    await change.getByRole("button", { name: "Change source" }).click();
    await change.getByRole("alert").waitFor(WAIT);
    const hint = await change.getByLabel("Clone URL").getAttribute("aria-describedby");
    expect((await page.locator(`[id="${hint}"]`).textContent())?.length).toBeGreaterThan(0);
    expect((await db.knex("applications").where({ id: app.applicationId }).first()).sourceType).toBe("docker");
    await change.getByLabel("Clone URL").fill("https://git.example.com/acme/shop.git");
    await change.getByLabel("Source branch").fill("release");
    await change.getByRole("button", { name: "Change source" }).click();
    await change.getByText("Source changed to git.").waitFor(WAIT);
    const stored = await db.knex("applications").where({ id: app.applicationId }).first();
    expect(stored.sourceType).toBe("git");
    expect(stored.source).toMatchObject({ customGitUrl: "https://git.example.com/acme/shop.git", branch: "release" });
    await screenshot(page, "app-source-change");
    await expectAccessible(page, "the application page (domain edit, source change)");
    await context.close();
  });

  it("reported no Content-Security-Policy violation", () => {
    expect(cspViolations).toEqual([]);
  });
});
