/**
 * The projects, payment gateway and docs theme pages in a real browser: Debian's Chromium through playwright-core
 * against a real Skiff on loopback (fixed port 4726 so SKIFF_BASE_URL and the page origin agree), real PostgreSQL, the
 * sandbox payment gateway and a loopback HTTPS receiver as the merchant's webhook endpoint. Covered: `/projects` (plan,
 * limits and usage equal to the quota check's numbers; the project → environment → application tree, reached by
 * keyboard), the payment gateway panel (provisioning live, key revealed on demand, method toggle, webhook URL errors in
 * words, relay log, delete with the merchant-release consequence) and a member's read-only view without the key, the
 * docs theme editor (live preview holding the very CSS the theme endpoint serves, dark mode, field errors, hostname
 * state, loader snippet), axe-core with 0 serious violations on every page, and the Content-Security-Policy
 * (`frame-ancestors 'none'`: another origin cannot frame a page; no CSP violation while the pages run).
 */
import { createServer, type Server } from "node:http";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SandboxGateway, startSandboxGateway } from "../../sandbox/gateway/sandbox-gateway.ts";
import { quotaStatus } from "../../src/modules/organizations/quota.ts";
import type { RunningSkiff } from "../../src/server/start.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { type HttpsReceiver, startHttpsReceiver } from "../helpers/https-receiver.ts";
import { addMember, createOrg, createProjects, type SeededUser, setPassword } from "../helpers/seed.ts";
import { gql, startTestServer } from "../helpers/server.ts";
import { TEST_PASSWORD } from "../helpers/session.ts";
import { contextSignedIn, expectAccessible, launchBrowser, SKIP_REASON, screenshot } from "./browser.ts";
import { ensureWebBuild } from "./web-build.ts";

const PORT = 4726;
const FRAMER_PORT = 4727;
const BASE = `http://127.0.0.1:${PORT}`;
const WAIT = { timeout: 20_000 };
const API_KEY = "sandbox-management-key";

describe.skipIf(SKIP_REASON !== null)("projects, payment gateway and docs theme pages in Chromium", () => {
  let db: TestDatabase;
  let skiff: RunningSkiff;
  let sandbox: SandboxGateway;
  let receiver: HttpsReceiver;
  let browser: Browser;
  let organizationId: string;
  let owner: SeededUser;
  let member: SeededUser;
  let projects: string[];
  const cspViolations: string[] = [];
  const withPassword = new Set<string>();

  beforeAll(async () => {
    await ensureWebBuild();
    sandbox = await startSandboxGateway({ apiKey: API_KEY, activationDelayMs: 800 });
    receiver = await startHttpsReceiver();
    db = await createTestDatabase();
    skiff = await startTestServer(db.url, {
      PORT: String(PORT),
      SKIFF_BASE_URL: BASE,
      SKIFF_GATEWAY_URL: sandbox.url,
      SKIFF_GATEWAY_API_KEY: API_KEY,
      SKIFF_OUTBOUND_ALLOW: "127.0.0.1",
    });
    sandbox.setEventsUrl(`${BASE}/api/payment-gateway/events`);
    ({ organizationId, owner } = await createOrg(db.knex, "plan_pro"));
    projects = await createProjects(db.knex, organizationId, 2, {
      applicationsPerEnvironment: 2,
      deploymentsPerApplication: 1,
      domainsPerApplication: 1,
    });
    member = await addMember(db.knex, organizationId, "member", { projectIds: [projects[0]!] });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await skiff?.stop();
    await sandbox?.close();
    await receiver?.close();
    await db?.drop();
  });

  /** A page of a context signed in as `user`, recording CSP violations reported to the console. */
  async function pageAs(user: SeededUser): Promise<{ context: BrowserContext; page: Page }> {
    if (!withPassword.has(user.userId)) await setPassword(db.knex, user.userId, TEST_PASSWORD);
    withPassword.add(user.userId);
    const context = await contextSignedIn(browser, BASE, user.email);
    context.setDefaultTimeout(20_000);
    const page = await context.newPage();
    page.on("console", (m) => {
      if (/Content.Security.Policy/i.test(m.text())) cspViolations.push(m.text());
    });
    return { context, page };
  }

  it("/projects: plan limits and usage as the quota check counts them, the tree by keyboard, axe-clean", {
    timeout: 90_000,
  }, async () => {
    const { context, page } = await pageAs(owner);
    const res = await page.goto("/projects");
    expect(res?.headers()["content-security-policy"]).toContain("frame-ancestors 'none'");
    const plan = page.getByTestId("plan-usage");
    await plan.getByTestId("plan-name").filter({ hasText: "pro" }).waitFor(WAIT);
    const status = await quotaStatus(db.knex, organizationId);
    for (const kind of ["projects", "applications", "databases", "domains"] as const) {
      const row = plan.locator(`tr[data-quota="${kind}"]`);
      const limit = status.limits[kind];
      expect(await row.getByTestId("limit").textContent()).toBe(limit === null ? "Unlimited" : String(limit));
      // quotaStatus counts only limited kinds; the shown count is the same query's for every kind.
      if (limit !== null) expect(await row.getByTestId("used").textContent()).toBe(String(status.usage[kind]));
    }
    expect(await plan.locator('tr[data-quota="applications"]').getByTestId("used").textContent()).toBe("4");

    const tree = page.getByTestId("project-tree");
    const first = tree.locator(`li[data-project-id="${projects[0]}"]`);
    await first.getByText("production").waitFor(WAIT);
    expect(await tree.locator("li.app-item").count()).toBe(4);
    const app = first.locator("li.app-item").first();
    await app.getByTestId("application-status").waitFor(WAIT);
    await app.getByTestId("application-health").filter({ hasText: "Health unknown" }).waitFor(WAIT);
    await app.getByTestId("deployment-status").filter({ hasText: "Done" }).waitFor(WAIT);
    await app.getByText(/\.example\.test/).waitFor(WAIT);
    await expectAccessible(page, "/projects");
    await screenshot(page, "projects");

    // Keyboard only: the skip link comes first; Tab reaches the first application's link, Enter opens its page.
    await page.keyboard.press("Tab");
    expect(await page.evaluate<string | undefined>("document.activeElement?.textContent")).toBe("Skip to content");
    const appId = await app.getAttribute("data-app-id");
    for (let i = 0; i < 40; i++) {
      await page.keyboard.press("Tab");
      const href = await page.evaluate<string | null | undefined>('document.activeElement?.getAttribute("href")');
      if (href === `/apps/${appId}`) break;
    }
    await page.keyboard.press("Enter");
    await page.waitForURL(`**/apps/${appId}`, WAIT);
    await context.close();

    // A member limited to one project sees that project only, and the organization's whole usage.
    const m = await pageAs(member);
    await m.page.goto("/projects");
    await m.page.getByTestId("project-tree").locator(`li[data-project-id="${projects[0]}"]`).waitFor(WAIT);
    expect(await m.page.getByTestId("project-tree").locator("li[data-project-id]").count()).toBe(1);
    const used = m.page.locator('tr[data-quota="projects"]').getByTestId("used");
    await used.waitFor(WAIT);
    expect(await used.textContent()).toBe("2");
    await m.context.close();
  });

  it("payment gateway panel: provisioning live, key on demand, toggles, webhook URL errors, relay log, delete; a member read-only without the key", {
    timeout: 120_000,
  }, async () => {
    const { context, page } = await pageAs(owner);
    await page.goto(`/projects/${projects[0]}/payments`);
    await page.getByText("No payment gateway services in this project yet.").waitFor(WAIT);
    const form = page.getByRole("form", { name: "Add a payment gateway service" });
    await form.getByLabel("Service name").fill("Shop payments");
    await form.getByLabel("Webhook URL (optional)").fill(`${receiver.url}/events`);
    await form.getByRole("button", { name: "Add service" }).click();
    const card = page.getByRole("region", { name: "Payment gateway service Shop payments" });
    await card.getByTestId("merchant-status").filter({ hasText: "Provisioning" }).waitFor(WAIT);
    await screenshot(page, "payments-provisioning");
    await card.getByTestId("merchant-status").filter({ hasText: "Active" }).waitFor(WAIT);
    const [merchant] = [...sandbox.merchants.values()];
    await card.getByTestId("merchant-code").filter({ hasText: merchant!.code! }).waitFor(WAIT);
    expect(await card.getByTestId("checkout-url").textContent()).toContain(`merchantCode=${merchant!.code}`);

    // The key: masked until revealed (read by its own query), then the gateway's key.
    expect(await card.getByTestId("signing-key").inputValue()).not.toBe(merchant!.signingKey);
    await card.getByRole("button", { name: "Reveal the signing key of Shop payments" }).focus();
    await page.keyboard.press("Enter");
    await card.getByRole("button", { name: "Copy the signing key of Shop payments" }).waitFor(WAIT);
    const key = await card.getByTestId("signing-key").inputValue();
    expect(key).toBe(merchant!.signingKey);

    // A method toggle reaches the gateway; the panel says it affects later payments.
    await card.getByText("Changes affect payments started afterwards").waitFor(WAIT);
    await card.getByRole("checkbox", { name: /MTN Mobile Money/ }).uncheck();
    await expect.poll(() => merchant!.disabledMethods.has("mtn_momo"), WAIT).toBe(true);

    // The webhook URL: a private address is refused in words, nothing stored.
    const hook = card.getByRole("form", { name: "Webhook URL of Shop payments" });
    await hook.getByLabel("Webhook URL").fill("https://10.0.0.8/hooks");
    await hook.getByRole("button", { name: "Save webhook URL" }).click();
    const refusal = hook.getByRole("alert");
    await refusal.waitFor(WAIT);
    expect(await refusal.textContent()).toMatch(/webhookUrl/i);
    const [stored] = await db.knex("payment_gateway_services").where({ organization_id: organizationId });
    expect(stored.webhookUrl).toBe(`${receiver.url}/events`);

    // A payment event is relayed; the log shows it (refreshing by itself).
    const res = await fetch(`${sandbox.url}/v1/merchants/${merchant!.id}/events`, {
      method: "POST",
      headers: { authorization: `Bearer ${API_KEY}`, "content-type": "application/json" },
      body: JSON.stringify({ type: "invoice.payment_succeeded", externalReference: "order-26" }),
    });
    expect(res.status).toBe(202);
    const log = card.getByTestId("relay-log");
    const entry = log.locator("tbody tr").first();
    await entry.getByText("order-26").waitFor(WAIT);
    await entry.getByTestId("relay-outcome").filter({ hasText: "Delivered" }).waitFor(WAIT);
    await entry.getByRole("cell", { name: "200", exact: true }).waitFor(WAIT);
    await expectAccessible(page, "the payment panel (owner)");
    await screenshot(page, "payments-owner");

    // A member: the same services, read-only, and the key nowhere in the page.
    const m = await pageAs(member);
    await m.page.goto(`/projects/${projects[0]}/payments`);
    const memberCard = m.page.getByRole("region", { name: "Payment gateway service Shop payments" });
    await memberCard.getByTestId("merchant-code").filter({ hasText: merchant!.code! }).waitFor(WAIT);
    await m.page.getByText("Read-only: owners and admins manage").waitFor(WAIT);
    await memberCard.getByTestId("relay-log").getByText("order-26").waitFor(WAIT);
    expect(await memberCard.getByTestId("signing-key").count()).toBe(0);
    expect(await memberCard.getByRole("button", { name: /Reveal|Delete|Save/ }).count()).toBe(0);
    expect(await memberCard.getByRole("checkbox", { name: /Orange Money/ }).isDisabled()).toBe(true);
    expect(await m.page.getByRole("form", { name: "Add a payment gateway service" }).count()).toBe(0);
    expect(await m.page.content()).not.toContain(key);
    await expectAccessible(m.page, "the payment panel (member)");
    await screenshot(m.page, "payments-member");
    // A project that does not exist: one "not found" message, not the error and a second one.
    await m.page.goto("/projects/prj_00000000000000000000000000/payments");
    await m.page
      .getByText(/not found/i)
      .first()
      .waitFor(WAIT);
    expect(await m.page.getByText(/not found/i).count()).toBe(1);
    await m.context.close();

    // Delete: the consequence for the merchant is stated before confirming; the last service releases it.
    await card.getByRole("button", { name: "Delete Shop payments…" }).click();
    const confirm = card.getByRole("group", { name: "Delete Shop payments" });
    expect(await confirm.textContent()).toMatch(/released at the gateway.*subscriptions stop/);
    await confirm.getByRole("button", { name: "Delete service" }).click();
    await page.getByText("No payment gateway services in this project yet.").waitFor(WAIT);
    await expect.poll(() => merchant!.status, WAIT).toBe("released");
    await context.close();
  });

  it("docs theme editor: live preview with the endpoint's CSS, dark mode, field errors, hostname state, snippet", {
    timeout: 90_000,
  }, async () => {
    const { context, page } = await pageAs(owner);
    await page.goto("/settings/docs");
    const form = page.getByRole("form", { name: "Docs theme" });
    await form.getByLabel("Site name").fill("Acme Docs");
    await form.getByLabel("Logo URL").fill("http://acme.test/logo.svg");
    await form.getByLabel("Footer text").fill("© Acme");
    await form.getByLabel("Light primary (HSL)").fill("350 80% 45%");
    await form
      .getByLabel("Custom CSS (appended after the colours, at most 64 KiB)")
      .fill("#cta { font-style: italic; }");

    // The preview follows the edits before saving.
    // The frame runs no script: the page reads it from outside (same origin, `allow-same-origin` without scripts).
    const frame = page.locator('iframe[title="Preview of a docs page with this theme"]');
    const inPreview = (selector: string, what: "background" | "fontStyle" | "text") =>
      frame.evaluate(
        (f, [sel, w]) => {
          type Styled = { backgroundColor: string; fontStyle: string };
          type Doc = {
            querySelector(s: string): { textContent: string | null } | null;
            defaultView: { getComputedStyle(el: unknown): Styled } | null;
          };
          const doc = (f as unknown as { contentDocument: Doc | null }).contentDocument;
          const el = doc?.querySelector(sel);
          if (!doc || !el) return null;
          const style = doc.defaultView!.getComputedStyle(el);
          return w === "background" ? style.backgroundColor : w === "fontStyle" ? style.fontStyle : el.textContent;
        },
        [selector, what] as const,
      );
    await expect.poll(() => inPreview('[data-docs-theme="site-name"]', "text"), WAIT).toBe("Acme Docs");
    await expect.poll(() => inPreview("#cta", "background"), WAIT).toBe("rgb(207, 23, 54)");
    expect(await inPreview("#cta", "fontStyle")).toBe("italic");

    // The colour picker and the HSL field stay in step.
    await form.getByLabel("Dark primary colour picker").fill("#3366cc");
    expect(await form.getByLabel("Dark primary (HSL)").inputValue()).toBe("220 60% 50%");
    await form.getByLabel("Dark primary (HSL)").fill("not a colour");
    expect(await form.getByLabel("Dark primary (HSL)").getAttribute("aria-invalid")).toBe("true");
    await form.getByLabel("Dark primary (HSL)").fill("220 60% 50%");

    // An http:// logo is refused by the API, said under its field (aria-invalid, tied by aria-describedby).
    await form.getByRole("button", { name: "Save theme" }).click();
    const logo = form.getByLabel("Logo URL");
    await expect.poll(() => logo.getAttribute("aria-invalid"), WAIT).toBe("true");
    const describedBy = (await logo.getAttribute("aria-describedby")) ?? "";
    const said = await Promise.all(describedBy.split(" ").map((id) => page.locator(`[id="${id}"]`).textContent()));
    expect(said.join(" ")).toMatch(/https/);
    await form.getByLabel("Logo URL").fill("https://acme.test/logo.svg");
    await form.getByLabel("Docs hostname (optional)").fill("docs.acme.test");
    await form.getByRole("button", { name: "Save theme" }).focus();
    await page.keyboard.press("Enter");
    await form.getByText("Theme saved").waitFor(WAIT);

    // The preview's theme CSS is byte for byte what the theme endpoint serves.
    const status = page.getByTestId("docs-hostname");
    const themeUrl = await status.getByTestId("theme-url").textContent();
    const served = await (await fetch(`${themeUrl}?format=css`)).text();
    expect(served).toContain("--primary: 350 80% 45%;");
    expect(await inPreview("#skiff-docs-theme", "text")).toBe(served);

    // Dark mode uses the dark palette.
    await page.getByRole("radio", { name: "Dark" }).check();
    await expect.poll(() => inPreview("#cta", "background"), WAIT).toBe("rgb(51, 102, 204)");

    // The hostname's state and the loader snippet.
    await status.getByTestId("dns-state").filter({ hasText: "Not checked yet" }).waitFor(WAIT);
    expect(await status.getByTestId("synced-at").textContent()).toMatch(/^Not yet/);
    expect(await status.getByTestId("conflict").textContent()).toBe("None");
    expect(await status.getByLabel(/Loader snippet/).inputValue()).toBe(
      `<script src="${BASE}/docs-theme.js" data-docs-host="${BASE}"></script>`,
    );
    // The preview frame shows a sample docs site in the user's colours and runs no script: axe checks the rest.
    await expectAccessible(page, "/settings/docs", ["iframe.theme-preview"]);
    await screenshot(page, "docs-theme");

    // A member is told the editor is for owners and admins.
    const m = await pageAs(member);
    await m.page.goto("/settings/docs");
    await m.page.getByText("Only owners and admins edit the docs theme.").waitFor(WAIT);
    await context.close();
    await m.context.close();
  });

  it("frame-ancestors 'none': another origin cannot frame a page; no CSP violation was reported", {
    timeout: 60_000,
  }, async () => {
    const framer: Server = createServer((_req, res) => {
      res.setHeader("content-type", "text/html");
      res.end(`<!doctype html><title>framer</title><iframe id="f" src="${BASE}/sign-in"></iframe>`);
    });
    await new Promise<void>((resolve) => framer.listen(FRAMER_PORT, "127.0.0.1", resolve));
    try {
      const context = await browser.newContext();
      const page = await context.newPage();
      const blocked: string[] = [];
      page.on("console", (m) => blocked.push(m.text()));
      await page.goto(`http://127.0.0.1:${FRAMER_PORT}/`);
      await expect.poll(() => blocked.some((t) => /frame-ancestors/.test(t)), WAIT).toBe(true);
      const child = page.frames().find((f) => f !== page.mainFrame());
      expect(await child?.locator("#root").count()).toBe(0);
      await context.close();
    } finally {
      await new Promise<void>((resolve) => framer.close(() => resolve()));
    }
    expect(cspViolations).toEqual([]);
  });

  it("the GraphQL usage equals the quota check's counts for owners and limited members alike", async () => {
    const q = `query($id: ID!) { organization(id: $id) { usage { projects applications databases domains } plan { usage { projects } } } }`;
    const byOwner = await gql<{ organization: { usage: Record<string, number> } }>(
      skiff.url,
      q,
      { id: organizationId },
      {
        apiKey: owner.apiKey,
      },
    );
    const byMember = await gql<{ organization: { usage: Record<string, number> } }>(
      skiff.url,
      q,
      { id: organizationId },
      {
        apiKey: member.apiKey,
      },
    );
    const counted = { projects: 2, applications: 4, databases: 0, domains: 4 };
    expect(byOwner.data?.organization.usage).toEqual(counted);
    expect(byMember.data?.organization.usage).toEqual(counted);
    const status = await quotaStatus(db.knex, organizationId);
    for (const k of ["projects", "applications", "databases", "domains"] as const)
      if (status.limits[k] !== null) expect(status.usage[k]).toBe(counted[k]);
  });
});
