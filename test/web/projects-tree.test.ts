import { beforeAll, describe, expect, it } from "vitest";
import { seededApplication } from "../deployments/deploy-helpers.ts";
import type { TestDatabase } from "../helpers/db.ts";
import { createRegistry } from "../helpers/seed.ts";
import { expectAccessible, focused, SKIP_REASON } from "./browser.ts";
import { useDashboardStack } from "./dashboard-stack.ts";

const PORT = 4646;
const WAIT = { timeout: 20_000 };

if (SKIP_REASON) console.warn(SKIP_REASON);

describe.skipIf(SKIP_REASON !== null)("the /projects tree and plan usage in Chromium", () => {
  const stack = useDashboardStack(PORT, { SKIFF_WORKER: "false" });
  const signedIn = stack.signedIn;
  let db: TestDatabase;
  beforeAll(() => {
    ({ db } = stack.started());
  });

  it("usage follows the tree; additions are said; counts in the singular; a refused name is said once", {
    timeout: 180_000,
  }, async () => {
    const app = await seededApplication(db.knex);
    await createRegistry(db.knex, app.organizationId);
    const projectName = (await db.knex("projects").where({ id: app.projectId }).first("name")).name as string;
    const context = await signedIn(app.owner);
    const page = await context.newPage();
    await page.goto("/projects");
    const usage = page.getByTestId("plan-usage");
    const used = (kind: string) => usage.locator(`tr[data-quota="${kind}"] [data-testid=used]`).textContent();
    const tree = page.getByTestId("project-tree");
    const project = tree.locator(`li[data-project-id="${app.projectId}"]`);
    await project.getByText("production").waitFor(WAIT);
    expect(await used("applications")).toBe("1");

    // One of each: singular.
    await tree.getByText("1 project", { exact: true }).waitFor(WAIT);
    await project.getByText("(1 application, 0 databases)").waitFor(WAIT);

    // A refused environment name: under its field, aria-invalid, said once.
    const addEnv = project.getByRole("form", { name: `Add an environment to ${projectName}` });
    const envName = addEnv.getByLabel("Environment name");
    await envName.fill("-bad name");
    await addEnv.getByRole("button", { name: "Add environment" }).click();
    await expect.poll(() => envName.getAttribute("aria-invalid"), WAIT).toBe("true");
    const hint = (await page.locator(`[id="${await envName.getAttribute("aria-describedby")}"]`).textContent()) ?? "";
    expect(hint.length).toBeGreaterThan(3);
    expect(((await project.textContent()) ?? "").split(hint).length - 1).toBe(1);

    // The corrected name: created, and said.
    await envName.fill("staging");
    await expect.poll(() => envName.getAttribute("aria-invalid"), WAIT).toBeNull();
    await addEnv.getByRole("button", { name: "Add environment" }).click();
    await addEnv.getByText(`Environment staging added to ${projectName}.`).waitFor(WAIT);

    // An application added in the tree: said, and counted in the plan's usage.
    const addApp = project.getByRole("form", { name: "Add an application to staging" });
    await addApp.getByLabel("Application name").fill("worker");
    await addApp.getByLabel("Docker image").fill("redis:7");
    await addApp.getByRole("button", { name: "Add application" }).click();
    await addApp.getByText("Application worker added to staging.").waitFor(WAIT);
    await expect.poll(() => used("applications"), WAIT).toBe("2");
    // Another action clears the earlier success message.
    expect(await addEnv.getByText(`Environment staging added to ${projectName}.`).count()).toBe(0);

    // A database added in the tree is counted too.
    const addDb = project.getByRole("form", { name: "Add a database to staging" });
    await addDb.getByLabel("Database name").fill("cache");
    await addDb.getByLabel("Database user").fill("cache");
    await addDb.getByRole("button", { name: "Add database" }).click();
    await addDb.getByTestId("secret").waitFor(WAIT);
    await expect.poll(() => used("databases"), WAIT).toBe("1");

    // Deleting the application: usage goes back down.
    await project.getByRole("button", { name: "Delete application worker" }).click();
    await project.getByRole("button", { name: "Confirm: delete worker" }).click();
    await project.getByRole("link", { name: "worker", exact: true }).waitFor({ state: "detached", ...WAIT });
    await expect.poll(() => used("applications"), WAIT).toBe("1");
    await expectAccessible(page, "/projects (additions said)");
    await context.close();
  });

  it("a non-empty environment offers no Delete confirmation; one generated password shows at a time", {
    timeout: 180_000,
  }, async () => {
    const app = await seededApplication(db.knex);
    const appName = (await db.knex("applications").where({ id: app.applicationId }).first("name")).name as string;
    const context = await signedIn(app.owner);
    const page = await context.newPage();
    await page.goto("/projects");
    const project = page.getByTestId("project-tree").locator(`li[data-project-id="${app.projectId}"]`);
    await project.getByText("production").waitFor(WAIT);

    const del = project.getByRole("button", { name: "Delete environment production" });
    await del.click();
    const box = project.getByRole("group", { name: /environment production/ });
    await box.getByText(`1 application (${appName})`).waitFor(WAIT);
    await box.getByText("delete it first").waitFor(WAIT);
    expect(await project.getByRole("button", { name: /^Confirm: delete environment/ }).count()).toBe(0);
    await expect.poll(() => focused(page).then((f) => f.group), WAIT).toMatch(/environment production/);
    await page.keyboard.press("Escape");
    await box.waitFor({ state: "detached", ...WAIT });
    await expect.poll(() => focused(page).then((f) => f.label), WAIT).toBe("Delete environment production");
    expect(await db.knex("environments").where({ project_id: app.projectId })).toHaveLength(1);

    // Add a database (its password shown), then rotate it: only the new password shows.
    const add = project.getByRole("form", { name: "Add a database to production" });
    await add.getByLabel("Database name").fill("shop");
    await add.getByLabel("Database user").fill("shop");
    await add.getByRole("button", { name: "Add database" }).click();
    await add.getByLabel("Password of shop").waitFor(WAIT);
    const item = project.locator("li[data-database-id]").filter({ hasText: "shop" });
    await item.getByRole("button", { name: "Rotate the password of database shop" }).click();
    await item.getByLabel("New password of shop").waitFor(WAIT);
    expect(await page.getByLabel("Password of shop", { exact: true }).count()).toBe(0);
    expect(await page.getByTestId("secret").count()).toBe(1);
    await context.close();
  });

  it("keyboard: the rename form and confirmations take focus; Escape cancels; focus returns or lands nearby", {
    timeout: 180_000,
  }, async () => {
    const app = await seededApplication(db.knex);
    const projectName = (await db.knex("projects").where({ id: app.projectId }).first("name")).name as string;
    const context = await signedIn(app.owner);
    const page = await context.newPage();
    await page.goto("/projects");
    const project = page.getByTestId("project-tree").locator(`li[data-project-id="${app.projectId}"]`);
    const addEnv = project.getByRole("form", { name: `Add an environment to ${projectName}` });
    await addEnv.getByLabel("Environment name").fill("staging");
    await addEnv.getByRole("button", { name: "Add environment" }).click();
    const rename = project.getByRole("button", { name: "Rename environment staging" });
    await rename.waitFor(WAIT);

    // Rename: the field takes focus; Escape closes and focus returns to Rename.
    await rename.focus();
    await page.keyboard.press("Enter");
    await expect.poll(() => focused(page).then((f) => f.form), WAIT).toBe("Rename environment staging");
    expect((await focused(page)).tag).toBe("input");
    await page.keyboard.press("Escape");
    await project.getByRole("form", { name: "Rename environment staging" }).waitFor({ state: "detached", ...WAIT });
    await expect.poll(() => focused(page).then((f) => f.label), WAIT).toBe("Rename environment staging");

    // Saved: focus goes to the renamed environment's Rename button.
    await page.keyboard.press("Enter");
    await expect.poll(() => focused(page).then((f) => f.tag), WAIT).toBe("input");
    await page.keyboard.press("ControlOrMeta+a");
    await page.keyboard.type("qa");
    await page.keyboard.press("Enter");
    await project.getByRole("button", { name: "Rename environment qa" }).waitFor(WAIT);
    await expect.poll(() => focused(page).then((f) => f.label), WAIT).toBe("Rename environment qa");

    // Delete the empty environment: focus goes into the confirmation; Cancel returns it; once deleted it lands on
    // the project's name.
    const del = project.getByRole("button", { name: "Delete environment qa" });
    await del.click();
    await expect.poll(() => focused(page).then((f) => f.group), WAIT).toBe("Confirm deleting environment qa");
    await project.getByRole("button", { name: "Cancel" }).click();
    await expect.poll(() => focused(page).then((f) => f.label), WAIT).toBe("Delete environment qa");
    await del.click();
    await project.getByRole("button", { name: "Confirm: delete environment qa" }).click();
    await del.waitFor({ state: "detached", ...WAIT });
    await expect.poll(() => focused(page).then((f) => f.text), WAIT).toBe(projectName);
    expect(await db.knex("environments").where({ project_id: app.projectId }).pluck("name")).toEqual(["production"]);
    await context.close();
  });
});
