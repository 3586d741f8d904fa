/**
 * The settings page's irreversible actions and the team's controls in a real browser: Debian's Chromium through
 * playwright-core against a real Skiff on loopback (port 4645, below the ephemeral range, so SKIFF_BASE_URL and the
 * page origin agree), real PostgreSQL. Deleting an API key, revoking the agent token, removing a member, cancelling an
 * invitation and revoking a grant each wait for a confirmation (Cancel changes nothing); revoking a member's last
 * grant says that the member then sees every project; a role is saved only with its Save button; refused fields are
 * said under them. Every change is checked in the database.
 */
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import type { TestDatabase } from "../helpers/db.ts";
import { addMember, createOrg, createProjects } from "../helpers/seed.ts";
import { expectAccessible, focused, SKIP_REASON, screenshot } from "./browser.ts";
import { useDashboardStack } from "./dashboard-stack.ts";

const PORT = 4645;
const WAIT = { timeout: 20_000 };

if (SKIP_REASON) console.warn(SKIP_REASON);

describe.skipIf(SKIP_REASON !== null)("settings: confirmations, grants and roles in Chromium", () => {
  const stack = useDashboardStack(PORT, { SKIFF_WORKER: "false" });
  const signedIn = stack.signedIn;
  let db: TestDatabase;
  beforeAll(() => {
    ({ db } = stack.started());
  });

  /** The names of the projects member `memberId` is granted, sorted. */
  async function grantsOf(memberId: string): Promise<string[]> {
    return (
      await db
        .knex("member_grants")
        .join("projects", "projects.id", "member_grants.project_id")
        .where({ "member_grants.member_id": memberId })
        .pluck("projects.name")
    ).sort();
  }

  /** Counts the GraphQL mutations named `name` the page sends. */
  function countMutations(page: Page, name: string): { n: number } {
    const seen = { n: 0 };
    page.on("request", (req) => {
      if (req.method() === "POST" && req.postData()?.includes(`mutation ${name}`)) seen.n += 1;
    });
    return seen;
  }

  it("grants are told apart; revoking asks first; the last grant's confirmation says every project is then seen", {
    timeout: 180_000,
  }, async () => {
    const { organizationId, owner } = await createOrg(db.knex);
    const [alpha, beta] = await createProjects(db.knex, organizationId, 2);
    const names = await db.knex("projects").whereIn("id", [alpha!, beta!]).orderBy("name").pluck("name");
    const [a, b] = [
      (await db.knex("projects").where({ id: alpha }).first("name")).name as string,
      (await db.knex("projects").where({ id: beta }).first("name")).name as string,
    ];
    const member = await addMember(db.knex, organizationId, "member", { projectIds: [alpha!] });
    const context = await signedIn(owner);
    const page = await context.newPage();
    await page.goto("/settings");
    const row = page
      .getByRole("region", { name: "Team" })
      .getByRole("row", { name: new RegExp(member.email.replace(/[.]/g, "\\.")) });
    await row.getByText(`Project ${a}`).waitFor(WAIT);

    // Grant: the button names the project and the member.
    await row.getByRole("combobox", { name: `Project to grant to ${member.email}` }).selectOption(beta!);
    await row.getByRole("button", { name: `Grant ${b} to ${member.email}` }).click();
    await row.getByText(`Project ${b}`).waitFor(WAIT);
    expect(await grantsOf(member.memberId)).toEqual(names);

    // Revoke one of two: a confirmation first; Cancel keeps it.
    const revokeA = row.getByRole("button", { name: `Revoke access to ${a} from ${member.email}` });
    await revokeA.click();
    const confirmA = row.getByRole("group", { name: `Confirm revoking access to ${a} from ${member.email}` });
    await confirmA.waitFor(WAIT);
    expect(await confirmA.getByText("every project").count()).toBe(0);
    await confirmA.getByRole("button", { name: "Cancel" }).click();
    expect(await grantsOf(member.memberId)).toEqual(names);
    await revokeA.click();
    await confirmA.getByRole("button", { name: `Confirm: revoke access to ${a} from ${member.email}` }).click();
    await row.getByText(`Project ${a}`).waitFor({ state: "detached", ...WAIT });
    expect(await grantsOf(member.memberId)).toEqual([b]);

    // The last grant: the confirmation says plainly that the member then sees every project, and offers removal.
    await row.getByRole("button", { name: `Revoke access to ${b} from ${member.email}` }).click();
    const last = row.getByRole("group", { name: `Confirm revoking access to ${b} from ${member.email}` });
    await last.getByText(`${member.email} is no longer limited and sees every project`).waitFor(WAIT);
    await last.getByRole("button", { name: `Remove ${member.email} instead` }).waitFor(WAIT);
    await screenshot(page, "settings-revoke-last-grant");
    await expectAccessible(page, "/settings (revoking the last grant)");
    await page.keyboard.press("Escape");
    await last.waitFor({ state: "detached", ...WAIT });
    expect(await grantsOf(member.memberId)).toEqual([b]);
    await row.getByRole("button", { name: `Revoke access to ${b} from ${member.email}` }).click();
    await last.getByRole("button", { name: /^Confirm: revoke access/ }).click();
    await row.getByText("Every project", { exact: true }).waitFor(WAIT);
    expect(await grantsOf(member.memberId)).toEqual([]);

    // "Remove instead" leads to the removal's own confirmation; Cancel keeps the member; Confirm removes.
    await row.getByRole("button", { name: `Remove ${member.email}` }).click();
    const removal = row.getByRole("group", { name: `Confirm removing ${member.email}` });
    await expect.poll(() => focused(page).then((f) => f.group), WAIT).toBe(`Confirm removing ${member.email}`);
    await removal.getByRole("button", { name: "Cancel" }).click();
    expect(await db.knex("members").where({ id: member.memberId })).toHaveLength(1);
    await row.getByRole("button", { name: `Remove ${member.email}` }).click();
    await removal.getByRole("button", { name: `Confirm: remove ${member.email}` }).click();
    await row.waitFor({ state: "detached", ...WAIT });
    expect(await db.knex("members").where({ id: member.memberId })).toEqual([]);
    // Focus did not fall to the page's body.
    expect((await focused(page)).body).toBe(false);
    await context.close();
  });

  it("a role is saved only with its Save button (arrow keys in the select send nothing)", {
    timeout: 120_000,
  }, async () => {
    const { organizationId, owner } = await createOrg(db.knex);
    const member = await addMember(db.knex, organizationId, "member");
    const context = await signedIn(owner);
    const page = await context.newPage();
    const updates = countMutations(page, "UpdateMemberRole");
    await page.goto("/settings");
    const select = page.getByRole("combobox", { name: `Role of ${member.email}` });
    await select.waitFor(WAIT);
    await select.focus();
    await page.keyboard.press("ArrowUp");
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("ArrowUp");
    expect(await select.inputValue()).toBe("admin");
    await page.waitForTimeout(500);
    expect(updates.n).toBe(0);
    expect((await db.knex("members").where({ id: member.memberId }).first("role")).role).toBe("member");

    await page.getByRole("button", { name: `Save role of ${member.email}` }).click();
    await page.getByText(`${member.email} is now admin.`).waitFor(WAIT);
    expect(updates.n).toBe(1);
    expect((await db.knex("members").where({ id: member.memberId }).first("role")).role).toBe("admin");
    await context.close();
  });

  it("API keys: same names told apart by prefix, deletion confirmed, the deleted key's shown secret goes; token too", {
    timeout: 120_000,
  }, async () => {
    const { organizationId, owner } = await createOrg(db.knex);
    const context = await signedIn(owner);
    const page = await context.newPage();
    await page.goto("/settings");
    const keys = page.getByRole("region", { name: "API keys" });

    // A refused name is said under the field (and only there).
    await keys.getByLabel("Key name").fill("   ");
    await keys.getByRole("button", { name: "Create key" }).click();
    await expect.poll(() => keys.getByLabel("Key name").getAttribute("aria-invalid"), WAIT).toBe("true");
    const hintId = await keys.getByLabel("Key name").getAttribute("aria-describedby");
    const hint = (await page.locator(`[id="${hintId}"]`).textContent()) ?? "";
    expect(hint).toMatch(/empty/i);
    expect(((await keys.textContent()) ?? "").split(hint).length - 1).toBe(1);

    for (let i = 0; i < 2; i++) {
      await keys.getByLabel("Key name").fill("ci");
      await keys.getByRole("button", { name: "Create key" }).click();
      await expect.poll(() => keys.getByRole("row", { name: /^ci / }).count(), WAIT).toBe(i + 1);
    }
    const secret = await keys.getByLabel("New API key").inputValue();
    const prefixes = (await keys.getByRole("row", { name: /^ci / }).locator("code").allInnerTexts()).map((p) =>
      p.replace("…", ""),
    );
    const newest = prefixes.find((p) => secret.startsWith(p));
    expect(newest).toBeDefined();
    const other = prefixes.find((p) => p !== newest)!;
    expect(await keys.getByRole("button", { name: /^Delete key ci / }).count()).toBe(2);

    // Deleting the other key keeps the shown secret; Cancel keeps a key.
    const deleteOther = keys.getByRole("button", { name: `Delete key ci (${other}…)` });
    await deleteOther.click();
    await keys.getByRole("group", { name: `Confirm deleting key ci (${other}…)` }).waitFor(WAIT);
    await keys.getByRole("button", { name: "Cancel" }).click();
    expect(await db.knex("api_keys").where({ organization_id: organizationId, name: "ci" })).toHaveLength(2);
    await deleteOther.click();
    await keys.getByRole("button", { name: `Confirm: delete key ci (${other}…)` }).click();
    await expect.poll(() => keys.getByRole("row", { name: /^ci / }).count(), WAIT).toBe(1);
    expect(await keys.getByLabel("New API key").count()).toBe(1);

    // Deleting the key whose secret is shown removes the secret's box.
    await keys.getByRole("button", { name: `Delete key ci (${newest}…)` }).click();
    await keys.getByRole("button", { name: `Confirm: delete key ci (${newest}…)` }).click();
    await expect.poll(() => keys.getByRole("row", { name: /^ci / }).count(), WAIT).toBe(0);
    expect(await keys.getByLabel("New API key").count()).toBe(0);
    expect(await db.knex("api_keys").where({ organization_id: organizationId, name: "ci" })).toEqual([]);
    expect((await focused(page)).body).toBe(false);

    // The agent token: Revoke asks first.
    const agent = page.getByRole("region", { name: "AI agent token" });
    await agent.getByRole("button", { name: "Create token" }).click();
    await agent.getByText(/^Current token/).waitFor(WAIT);
    await agent.getByRole("button", { name: "Revoke token" }).click();
    const confirm = agent.getByRole("group", { name: "Confirm revoking the agent token" });
    await confirm.getByRole("button", { name: "Cancel" }).click();
    await expect.poll(() => focused(page).then((f) => f.text), WAIT).toBe("Revoke token");
    expect(await agent.getByText(/^Current token/).count()).toBe(1);
    await agent.getByRole("button", { name: "Revoke token" }).click();
    await confirm.getByRole("button", { name: "Confirm: revoke the agent token" }).click();
    await agent.getByText("No agent token.").waitFor(WAIT);
    await context.close();
  });

  it("invitations: a refused address is said under its field; Cancel invitation asks first", {
    timeout: 120_000,
  }, async () => {
    const { organizationId, owner } = await createOrg(db.knex);
    const context = await signedIn(owner);
    const page = await context.newPage();
    await page.goto("/settings");
    const form = page.getByRole("form", { name: "Invite a person" });
    const address = form.getByLabel("E-mail to invite");
    await address.fill("nobody@localhost");
    await form.getByRole("button", { name: "Send invitation" }).click();
    await expect.poll(() => address.getAttribute("aria-invalid"), WAIT).toBe("true");
    const hintId = await address.getAttribute("aria-describedby");
    expect(await page.locator(`[id="${hintId}"]`).textContent()).toBe("Not an e-mail address");
    const team = page.getByRole("region", { name: "Team" });
    expect(((await team.textContent()) ?? "").split("Not an e-mail address").length - 1).toBe(1);
    // Editing the address clears the refusal.
    await address.fill("invited@example.com");
    await expect.poll(() => address.getAttribute("aria-invalid"), WAIT).toBeNull();
    await form.getByRole("button", { name: "Send invitation" }).click();
    await page.getByText("Invitation sent to invited@example.com.").waitFor(WAIT);

    const row = page.getByRole("row", { name: /invited@example\.com/ });
    await row.getByRole("button", { name: "Cancel invitation to invited@example.com" }).click();
    const confirm = row.getByRole("group", { name: "Confirm cancelling the invitation to invited@example.com" });
    await confirm.getByRole("button", { name: "Keep it" }).click();
    const status = () =>
      db.knex("invitations").where({ organization_id: organizationId, email: "invited@example.com" }).first("status");
    expect((await status()).status).toBe("pending");
    await row.getByRole("button", { name: "Cancel invitation to invited@example.com" }).click();
    await confirm.getByRole("button", { name: "Confirm: cancel the invitation to invited@example.com" }).click();
    await row.getByText("revoked").waitFor(WAIT);
    expect((await status()).status).toBe("canceled");
    expect((await focused(page)).body).toBe(false);
    await context.close();
  });
});
