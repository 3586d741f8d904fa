import { beforeAll, describe, expect, it } from "vitest";
import { addVariable, deploymentsOf, seededApplication } from "../deployments/deploy-helpers.ts";
import type { TestDatabase } from "../helpers/db.ts";
import { addMember, createRegistry } from "../helpers/seed.ts";
import { expectAccessible, SKIP_REASON, screenshot } from "./browser.ts";
import { useDashboardStack } from "./dashboard-stack.ts";

const PORT = 4642;
const WAIT = { timeout: 20_000 };

if (SKIP_REASON) console.warn(SKIP_REASON);

describe.skipIf(SKIP_REASON !== null)("managing applications and environments in Chromium", () => {
  const stack = useDashboardStack(PORT, { SKIFF_WORKER: "false" });
  const signedIn = stack.signedIn;
  let db: TestDatabase;
  beforeAll(() => {
    ({ db } = stack.started());
  });

  /** The application's variables as stored (keys only: values are encrypted). */
  async function storedKeys(applicationId: string): Promise<string[]> {
    const rows = await db.knex("environment_variables").where({ application_id: applicationId }).orderBy("key");
    return rows.map((r: { key: string }) => r.key);
  }

  it("owner: sets, reveals, pastes (a bad line sets nothing) and removes variables, sees needs deployment, deploys", {
    timeout: 180_000,
  }, async () => {
    const app = await seededApplication(db.knex);
    await addVariable(db.knex, app.applicationId, "EXISTING", "s3cret-value");
    const context = await signedIn(app.owner);
    const page = await context.newPage();
    await page.goto(`/apps/${app.applicationId}`);
    const section = page.getByRole("region", { name: "Variables" });
    const existing = section.locator('tr[data-variable="EXISTING"]');
    await existing.waitFor(WAIT);

    // Masked until revealed.
    expect(await existing.getByTestId("variable-value").textContent()).not.toContain("s3cret-value");
    await existing.getByRole("button", { name: "Reveal EXISTING" }).click();
    await existing.getByTestId("variable-value").filter({ hasText: "s3cret-value" }).waitFor(WAIT);
    await existing.getByRole("button", { name: "Hide EXISTING" }).click();
    await existing.getByTestId("variable-value").filter({ hasText: "••••" }).waitFor(WAIT);

    // Set one: listed, stored, and the application needs a deployment.
    expect(await page.getByTestId("needs-deployment").count()).toBe(0);
    const setForm = section.getByRole("form", { name: "Set a variable" });
    await setForm.getByLabel("Name").fill("API_URL");
    await setForm.getByLabel("Value").fill("https://api.example.com");
    await setForm.getByRole("button", { name: "Set variable" }).click();
    await section.getByText("API_URL set.").waitFor(WAIT);
    await section.locator('tr[data-variable="API_URL"]').waitFor(WAIT);
    expect(await storedKeys(app.applicationId)).toEqual(["API_URL", "EXISTING"]);
    await page.getByTestId("needs-deployment").waitFor(WAIT);

    // A paste with a bad line: the line is named, nothing is set.
    const pasteBox = section.getByRole("textbox", { name: "Paste a .env file" });
    await pasteBox.fill("GOOD_ONE=1\n1BAD=2\nOTHER=3");
    await section.getByRole("button", { name: "Set pasted variables" }).click();
    const refused = section.getByRole("list", { name: "Refused lines" });
    await refused.getByText(/^Line 2: /).waitFor(WAIT);
    await section.getByText("Nothing was set.").waitFor(WAIT);
    expect(await storedKeys(app.applicationId)).toEqual(["API_URL", "EXISTING"]);
    await screenshot(page, "app-variables-paste-error");

    // The corrected paste sets both.
    await pasteBox.fill('GOOD_ONE=1\n# a comment\nexport OTHER="three"');
    await section.getByRole("button", { name: "Set pasted variables" }).click();
    await section.getByText("Set GOOD_ONE, OTHER.").waitFor(WAIT);
    expect(await refused.count()).toBe(0);
    expect(await storedKeys(app.applicationId)).toEqual(["API_URL", "EXISTING", "GOOD_ONE", "OTHER"]);

    // Remove behind a confirmation that says what it does; Cancel keeps it.
    const other = section.locator('tr[data-variable="OTHER"]');
    await other.getByRole("button", { name: "Remove OTHER" }).click();
    const confirm = other.getByRole("group", { name: "Confirm removing OTHER" });
    await confirm.getByText("until the next deployment").waitFor(WAIT);
    await confirm.getByRole("button", { name: "Cancel" }).click();
    expect(await storedKeys(app.applicationId)).toContain("OTHER");
    await other.getByRole("button", { name: "Remove OTHER" }).click();
    await other.getByRole("button", { name: "Confirm: remove OTHER" }).click();
    await other.waitFor({ state: "detached", ...WAIT });
    expect(await storedKeys(app.applicationId)).toEqual(["API_URL", "EXISTING", "GOOD_ONE"]);

    await expectAccessible(page, "the application page (variables)");

    // Deploy from the notice: a deployment is queued and the notice goes away.
    await page.getByTestId("needs-deployment").getByRole("button", { name: "Deploy changes" }).click();
    await page.getByTestId("needs-deployment").waitFor({ state: "detached", ...WAIT });
    expect(await deploymentsOf(db.knex, app.applicationId)).toHaveLength(1);
    await context.close();
  });

  it("owner: adds and removes a domain, changes the port, sees a refused field under it; a member sees no controls", {
    timeout: 180_000,
  }, async () => {
    const app = await seededApplication(db.knex);
    const context = await signedIn(app.owner);
    const page = await context.newPage();
    await page.goto(`/apps/${app.applicationId}`);

    // Domains: add one with HTTPS; its state is shown; remove it behind a confirmation.
    const domains = page.getByRole("region", { name: "Domains" });
    await domains.getByText("No custom domains.").waitFor(WAIT);
    const addForm = domains.getByRole("form", { name: "Add a domain" });
    await addForm.getByLabel("Host").fill("Shop.Example.com");
    await addForm.getByRole("button", { name: "Add domain" }).click();
    const row = domains.locator('tr[data-domain="shop.example.com"]');
    await row.getByTestId("domain-https").filter({ hasText: "certificate requested" }).waitFor(WAIT);
    expect(await db.knex("domains").where({ application_id: app.applicationId }).select("host", "https")).toEqual([
      { host: "shop.example.com", https: true },
    ]);
    await page.getByTestId("needs-deployment").waitFor(WAIT);
    await row.getByRole("button", { name: "Remove shop.example.com" }).click();
    const confirm = row.getByRole("group", { name: "Confirm removing shop.example.com" });
    await confirm.getByText("the host becomes free").waitFor(WAIT);
    await screenshot(page, "app-domains-confirm");
    await confirm.getByRole("button", { name: "Confirm: remove shop.example.com" }).click();
    await domains.getByText("No custom domains.").waitFor(WAIT);
    expect(await db.knex("domains").where({ application_id: app.applicationId })).toEqual([]);

    // Settings: a refused health path is said under its field, nothing stored; then the port is changed.
    const settings = page.getByRole("form", { name: "Application settings" });
    expect(await settings.getByLabel("Port").inputValue()).toBe("80");
    await settings.getByLabel("Health path").fill("no-slash");
    await settings.getByRole("button", { name: "Save settings" }).click();
    await page.getByRole("region", { name: "Settings" }).getByRole("alert").waitFor(WAIT);
    const healthHint = await settings.getByLabel("Health path").getAttribute("aria-describedby");
    expect(await page.locator(`[id="${healthHint}"]`).textContent()).toMatch(/^Refused: /);
    expect((await db.knex("applications").where({ id: app.applicationId }).first()).port).toBe(80);
    await settings.getByLabel("Health path").fill("/healthz");
    await settings.getByLabel("Port").fill("8080");
    await settings.getByRole("button", { name: "Save settings" }).click();
    await page.getByText("Settings saved.").waitFor(WAIT);
    expect(await db.knex("applications").where({ id: app.applicationId }).first()).toMatchObject({
      port: 8080,
      healthPath: "/healthz",
    });
    await page.reload();
    await settings.getByLabel("Port").waitFor(WAIT);
    expect(await settings.getByLabel("Port").inputValue()).toBe("8080");
    expect(await settings.getByLabel("Health path").inputValue()).toBe("/healthz");
    await screenshot(page, "app-settings");
    await expectAccessible(page, "the application page (settings and domains)");
    await context.close();

    // A member: values without any control.
    const member = await addMember(db.knex, app.organizationId, "member", { projectIds: [app.projectId] });
    const memberContext = await signedIn(member);
    const memberPage = await memberContext.newPage();
    await memberPage.goto(`/apps/${app.applicationId}`);
    await memberPage.getByRole("region", { name: "Domains" }).waitFor(WAIT);
    expect(await memberPage.getByRole("form", { name: "Add a domain" }).count()).toBe(0);
    expect(await memberPage.getByRole("form", { name: "Set a variable" }).count()).toBe(0);
    expect(await memberPage.getByRole("button", { name: "Save settings" }).count()).toBe(0);
    await memberContext.close();
  });

  it("owner: adds an environment and an application from the tree, deletes them behind confirmations naming what goes", {
    timeout: 180_000,
  }, async () => {
    const app = await seededApplication(db.knex);
    const context = await signedIn(app.owner);
    const page = await context.newPage();
    await page.goto("/projects");
    const tree = page.getByTestId("project-tree");
    const project = tree.locator(`li[data-project-id="${app.projectId}"]`);
    await project.getByText("production").waitFor(WAIT);

    // A non-empty environment: the box names what to delete first and offers no confirmation.
    await project.getByRole("button", { name: "Delete environment production" }).click();
    const refuse = project.getByRole("group", { name: "Cannot delete environment production yet" });
    await refuse.getByText("delete it first").waitFor(WAIT);
    expect(await refuse.getByRole("button", { name: /^Confirm/ }).count()).toBe(0);
    await refuse.getByRole("button", { name: "Close" }).click();

    // Add an environment, then an application (a Docker image) to it.
    const addEnv = project.getByRole("form", { name: /^Add an environment to project-/ });
    await addEnv.getByLabel("Environment name").fill("staging");
    await addEnv.getByRole("button", { name: "Add environment" }).click();
    const addApp = project.getByRole("form", { name: "Add an application to staging" });
    await addApp.getByLabel("Application name").fill("worker");
    await addApp.getByLabel("Docker image").fill("redis:7");
    await addApp.getByLabel("Port").fill("6379");
    // Without a container registry the refusal is said in words; with one the application is created.
    await addApp.getByRole("button", { name: "Add application" }).click();
    await addApp.getByRole("alert").filter({ hasText: "No container registry" }).waitFor(WAIT);
    await createRegistry(db.knex, app.organizationId);
    await addApp.getByRole("button", { name: "Add application" }).click();
    await project.getByRole("link", { name: "worker", exact: true }).waitFor(WAIT);
    const created = await db.knex("applications").where({ project_id: app.projectId, name: "worker" }).first();
    expect(created).toMatchObject({ port: 6379, sourceType: "docker" });
    await expectAccessible(page, "/projects (owner controls)");

    // Delete the application: the confirmation names its variables, deployments and containers.
    await project.getByRole("button", { name: "Delete application worker" }).click();
    const confirmApp = project.getByRole("group", { name: "Confirm deleting worker" });
    await confirmApp.getByText("with its variables, its deployments").waitFor(WAIT);
    await screenshot(page, "projects-delete-application");
    await confirmApp.getByRole("button", { name: "Confirm: delete worker" }).click();
    await project.getByRole("link", { name: "worker", exact: true }).waitFor({ state: "detached", ...WAIT });
    expect(await db.knex("applications").where({ id: created.id })).toEqual([]);

    // The now empty environment is deleted.
    await project.getByRole("button", { name: "Delete environment staging" }).click();
    const confirmEnv = project.getByRole("group", { name: "Confirm deleting environment staging" });
    await confirmEnv.getByText("Deletes the empty environment staging").waitFor(WAIT);
    await confirmEnv.getByRole("button", { name: "Confirm: delete environment staging" }).click();
    await addApp.waitFor({ state: "detached", ...WAIT });
    expect(await db.knex("environments").where({ project_id: app.projectId }).pluck("name")).toEqual(["production"]);
    await context.close();
  });
});
