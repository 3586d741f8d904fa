/**
 * The application page's Settings form against a changing application, its "needs deployment" notice, its heading,
 * its messages and its keyboard focus, in a real browser: Debian's Chromium through playwright-core against a real
 * Skiff on loopback (port 4644, below the ephemeral range, so SKIFF_BASE_URL and the page origin agree), real
 * PostgreSQL. The Settings form follows the application (Change source, a rename elsewhere, a re-read) and saves only
 * what the person edited; every saved change is checked in the database and in the request the page sent.
 */
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { addDomain, addVariable, deploymentsOf, seededApplication } from "../deployments/deploy-helpers.ts";
import type { TestDatabase } from "../helpers/db.ts";
import { createRegistry } from "../helpers/seed.ts";
import { gql } from "../helpers/server.ts";
import { expectAccessible, focused, SKIP_REASON } from "./browser.ts";
import { useDashboardStack } from "./dashboard-stack.ts";

const PORT = 4644;
const BASE = `http://127.0.0.1:${PORT}`;
const WAIT = { timeout: 20_000 };

if (SKIP_REASON) console.warn(SKIP_REASON);

describe.skipIf(SKIP_REASON !== null)("the application page's settings, notice and focus in Chromium", () => {
  const stack = useDashboardStack(PORT, { SKIFF_WORKER: "false" });
  const signedIn = stack.signedIn;
  let db: TestDatabase;
  beforeAll(() => {
    ({ db } = stack.started());
  });

  /** The `input` of every `UpdateApplication` the page sends, in order. */
  function sentUpdates(page: Page): Record<string, unknown>[] {
    const sent: Record<string, unknown>[] = [];
    page.on("request", (req) => {
      const body = req.postData();
      if (req.method() !== "POST" || !req.url().endsWith("/graphql") || !body?.includes("mutation UpdateApplication"))
        return;
      const input = (JSON.parse(body) as { variables: { input: Record<string, unknown> } }).variables.input;
      if (!("source" in input)) sent.push(input);
    });
    return sent;
  }

  it("Settings follows Change source and a rename elsewhere, and saves only the fields the person edited", {
    timeout: 180_000,
  }, async () => {
    const app = await seededApplication(db.knex);
    await createRegistry(db.knex, app.organizationId);
    const context = await signedIn(app.owner);
    const page = await context.newPage();
    const sent = sentUpdates(page);
    await page.goto(`/apps/${app.applicationId}`);
    const settings = page.getByRole("form", { name: "Application settings" });
    await settings.getByLabel("Image").waitFor(WAIT);

    // docker → git: the form now shows the git source's values (never the docker image).
    const change = page.getByRole("form", { name: "Change source" });
    await change.getByLabel("Source type").selectOption("git");
    await change.getByLabel("Clone URL").fill("https://git.example.com/acme/shop.git");
    await change.getByLabel("Source branch").fill("develop");
    await change.getByRole("button", { name: "Change source" }).click();
    await change.getByText("Source changed to git.").waitFor(WAIT);
    await expect.poll(() => settings.getByLabel("Branch").inputValue(), WAIT).toBe("develop");
    expect(await settings.getByLabel("Image").count()).toBe(0);

    // Only the health path is edited: only it is sent, and the branch stays develop.
    await settings.getByLabel("Health path").fill("/ready");
    await settings.getByRole("button", { name: "Save settings" }).click();
    await page.getByText("Settings saved.").waitFor(WAIT);
    expect(sent).toEqual([{ healthPath: "/ready" }]);
    let stored = await db.knex("applications").where({ id: app.applicationId }).first();
    expect(stored.source).toMatchObject({ customGitUrl: "https://git.example.com/acme/shop.git", branch: "develop" });
    expect(stored.healthPath).toBe("/ready");

    // Another tab renames it and changes the branch while the person edits the port here; a variable set re-reads
    // the application: the name and branch follow, the person's port stays, and only the port is saved.
    await settings.getByLabel("Port").fill("8081");
    const elsewhere = await gql(
      BASE,
      `mutation($id: ID!) { updateApplication(id: $id, input: { name: "renamed-elsewhere", branch: "release" }) { id } }`,
      { id: app.applicationId },
      { apiKey: app.owner.apiKey },
    );
    expect(elsewhere.errors).toBeUndefined();
    const setForm = page.getByRole("form", { name: "Set a variable" });
    await setForm.getByLabel("Name").fill("REREAD");
    await setForm.getByLabel("Value").fill("1");
    await setForm.getByRole("button", { name: "Set variable" }).click();
    await expect.poll(() => settings.getByLabel("Name").inputValue(), WAIT).toBe("renamed-elsewhere");
    expect(await settings.getByLabel("Branch").inputValue()).toBe("release");
    expect(await settings.getByLabel("Port").inputValue()).toBe("8081");
    await settings.getByRole("button", { name: "Save settings" }).click();
    await page.getByText("Settings saved.").waitFor(WAIT);
    expect(sent).toEqual([{ healthPath: "/ready" }, { port: 8081 }]);
    stored = await db.knex("applications").where({ id: app.applicationId }).first();
    expect(stored).toMatchObject({ name: "renamed-elsewhere", port: 8081, healthPath: "/ready" });
    expect(stored.source).toMatchObject({ branch: "release" });

    // Back to docker: the form shows the image; saving the port alone sends no git field.
    await change.getByLabel("Source type").selectOption("docker");
    await change.getByLabel("New image").fill("nginx:1.28");
    await change.getByRole("button", { name: "Change source" }).click();
    await change.getByText("Source changed to docker.").waitFor(WAIT);
    await expect.poll(() => settings.getByLabel("Image").inputValue(), WAIT).toBe("nginx:1.28");
    await settings.getByLabel("Port").fill("8082");
    await settings.getByRole("button", { name: "Save settings" }).click();
    await page.getByText("Settings saved.").waitFor(WAIT);
    expect(sent[2]).toEqual({ port: 8082 });
    await context.close();
  });

  it("a refusal is said once, under its field; messages clear when the person edits or starts another action", {
    timeout: 120_000,
  }, async () => {
    const app = await seededApplication(db.knex);
    const context = await signedIn(app.owner);
    const page = await context.newPage();
    await page.goto(`/apps/${app.applicationId}`);
    const region = page.getByRole("region", { name: "Settings" });
    const settings = page.getByRole("form", { name: "Application settings" });
    const health = settings.getByLabel("Health path");
    await health.waitFor(WAIT);

    await health.fill("no-slash");
    await settings.getByRole("button", { name: "Save settings" }).click();
    await expect.poll(() => health.getAttribute("aria-invalid"), WAIT).toBe("true");
    const hintId = await health.getAttribute("aria-describedby");
    const hint = ((await page.locator(`[id="${hintId}"]`).textContent()) ?? "").replace(/^Refused: /, "");
    expect(hint.length).toBeGreaterThan(3);
    // The refusal's words appear once in the section: under the field, not again in a form-level alert.
    const text = ((await region.textContent()) ?? "").split(hint).length - 1;
    expect(text).toBe(1);
    expect(await region.getByRole("alert").count()).toBe(1);

    // Editing the field clears the refusal.
    await health.fill("/healthz");
    await expect.poll(() => region.getByRole("alert").count(), WAIT).toBe(0);
    expect(await health.getAttribute("aria-invalid")).toBeNull();

    // A success notice goes when the form is edited again, and when another action starts.
    await settings.getByRole("button", { name: "Save settings" }).click();
    await page.getByText("Settings saved.").waitFor(WAIT);
    await settings.getByLabel("Port").fill("8080");
    await page.getByText("Settings saved.").waitFor({ state: "detached", ...WAIT });
    await settings.getByRole("button", { name: "Save settings" }).click();
    await page.getByText("Settings saved.").waitFor(WAIT);
    const setForm = page.getByRole("form", { name: "Set a variable" });
    await setForm.getByLabel("Name").fill("OTHER");
    await setForm.getByLabel("Value").fill("1");
    await setForm.getByRole("button", { name: "Set variable" }).click();
    await page.getByText("OTHER set.").waitFor(WAIT);
    expect(await page.getByText("Settings saved.").count()).toBe(0);
    await context.close();
  });

  it("the needs-deployment notice goes once a deployment is queued from the Deploy form", {
    timeout: 120_000,
  }, async () => {
    const app = await seededApplication(db.knex);
    await db.knex("applications").where({ id: app.applicationId }).update({ needs_deployment: true });
    const context = await signedIn(app.owner);
    const page = await context.newPage();
    await page.goto(`/apps/${app.applicationId}`);
    await page.getByTestId("needs-deployment").waitFor(WAIT);
    const name = (await db.knex("applications").where({ id: app.applicationId }).first("name")).name as string;
    const form = page.getByRole("form", { name: `Deploy ${name}` });
    await form.getByLabel("Deployment title (optional)").fill("from the form");
    await form.getByRole("button", { name: "Deploy", exact: true }).click();
    await page.getByText("Deployment “from the form” queued.").waitFor(WAIT);
    await page.getByTestId("needs-deployment").waitFor({ state: "detached", ...WAIT });
    expect(await deploymentsOf(db.knex, app.applicationId)).toHaveLength(1);
    await context.close();
  });

  it("a custom git application's heading shows its clone URL and branch", { timeout: 60_000 }, async () => {
    const url = "https://git.example.com/acme/heading.git";
    const app = await seededApplication(db.knex, {
      source_type: "git",
      source: JSON.stringify({ customGitUrl: url, branch: "master" }),
    });
    const context = await signedIn(app.owner);
    const page = await context.newPage();
    await page.goto(`/apps/${app.applicationId}`);
    const heading = page.locator("main > p.muted").first();
    await heading.getByText(url).waitFor(WAIT);
    expect(((await heading.textContent()) ?? "").replace(/\s+/g, " ")).toContain(`git ${url} branch master`);
    await context.close();
  });

  it("keyboard: confirmations and the domain form take focus, Escape cancels, focus returns or lands nearby", {
    timeout: 120_000,
  }, async () => {
    const app = await seededApplication(db.knex);
    await addVariable(db.knex, app.applicationId, "GONE", "x");
    await addVariable(db.knex, app.applicationId, "KEPT", "y");
    const host = `focus-${app.applicationId.slice(-8)}.example.test`;
    await addDomain(db.knex, app.organizationId, app.applicationId, host, true);
    const context = await signedIn(app.owner);
    const page = await context.newPage();
    await page.goto(`/apps/${app.applicationId}`);
    const variables = page.getByRole("region", { name: "Variables" });
    const remove = variables.getByRole("button", { name: "Remove GONE" });
    await remove.waitFor(WAIT);

    // Opening the confirmation moves focus into it; Escape cancels and gives focus back to Remove.
    await remove.focus();
    await page.keyboard.press("Enter");
    await expect.poll(() => focused(page).then((f) => f.group), WAIT).toBe("Confirm removing GONE");
    await page.keyboard.press("Escape");
    await variables.getByRole("group", { name: "Confirm removing GONE" }).waitFor({ state: "detached", ...WAIT });
    await expect.poll(() => focused(page).then((f) => f.label), WAIT).toBe("Remove GONE");

    // Cancel (clicked) gives focus back too.
    await remove.click();
    await variables.getByRole("button", { name: "Cancel" }).click();
    await expect.poll(() => focused(page).then((f) => f.label), WAIT).toBe("Remove GONE");

    // Confirmed: the row goes, and focus lands on the section's heading, not on the page's body.
    await remove.click();
    await variables.getByRole("button", { name: "Confirm: remove GONE" }).click();
    await variables.locator('tr[data-variable="GONE"]').waitFor({ state: "detached", ...WAIT });
    await expect.poll(() => focused(page).then((f) => f.text), WAIT).toBe("Variables");

    // The domain form: its port field takes focus; Escape closes it and focus returns to Edit.
    const row = page.getByRole("region", { name: "Domains" }).locator(`tr[data-domain="${host}"]`);
    await row.getByRole("button", { name: `Edit ${host}` }).click();
    await expect.poll(() => focused(page).then((f) => f.form), WAIT).toBe(`Edit ${host}`);
    expect((await focused(page)).tag).toBe("input");
    await page.keyboard.press("Escape");
    await row.getByRole("form", { name: `Edit ${host}` }).waitFor({ state: "detached", ...WAIT });
    await expect.poll(() => focused(page).then((f) => f.label), WAIT).toBe(`Edit ${host}`);

    // The domain's Remove confirmation: focus in, Escape out.
    await row.getByRole("button", { name: `Remove ${host}` }).click();
    await expect.poll(() => focused(page).then((f) => f.group), WAIT).toBe(`Confirm removing ${host}`);
    await page.keyboard.press("Escape");
    await expect.poll(() => focused(page).then((f) => f.label), WAIT).toBe(`Remove ${host}`);
    await expectAccessible(page, "the application page (focus)");
    await context.close();
  });
});
