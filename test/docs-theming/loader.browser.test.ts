/**
 * The `/docs-theme.js` loader in a real browser (spec "Docs-domain lookup and theme"): Debian's Chromium through
 * playwright-core opens a small docs page served on non-localhost names (`--host-resolver-rules` maps
 * docs.acme.test and docs.unknown.test to 127.0.0.1) that includes the loader from Skiff (port 4493, its own docs
 * host). Checked: title, navbar text, logo, favicon, footer, colours through `getComputedStyle` in light and dark
 * mode, the custom CSS; a reload within 5 minutes makes no lookup or theme call (sessionStorage); a failing lookup
 * (404, or a docs host that is down) leaves the default theme with no page error; localhost is left alone.
 */
import { createServer, type Server } from "node:http";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { syncWithDocsHost } from "../../src/modules/docs-theming/docs-sync.ts";
import type { RunningSkiff } from "../../src/server/start.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { createOrg } from "../helpers/seed.ts";
import { gql, startTestServer } from "../helpers/server.ts";
import { launchBrowser, SKIP_REASON } from "../web/browser.ts";
import { type CnameServer, startCnameServer } from "./cname-dns.ts";
import { SET_THEME, THEME } from "./docs-helpers.ts";

const SKIFF_PORT = 4493;
const PAGE_PORT = 4494;
const DOWN_PORT = 4495;
const SKIFF = `http://127.0.0.1:${SKIFF_PORT}`;
const WAIT = { timeout: 15_000 };
const BROWSER_THEME = { ...THEME, customCss: "#btn { font-style: italic; }", docsHostname: "docs.acme.test" };

/** The docs page: default theme, the loader from Skiff with `data-docs-host` (query `host`), `dark` class on request. */
function docsPage(url: URL): string {
  const host = url.searchParams.get("host") ?? SKIFF;
  const dark = url.pathname === "/dark" ? ' class="dark"' : "";
  return `<!doctype html><html${dark}><head><meta charset="utf-8"><title>Default Docs</title>
<link rel="icon" href="/default.ico">
<style>:root { --primary: 0 0% 50%; } .dark { --primary: 0 0% 20%; } #btn { color: hsl(var(--primary)); }</style>
<script src="${SKIFF}/docs-theme.js" data-docs-host="${host}"></script>
</head><body><nav><img data-docs-theme="logo" src="/logo.svg" alt=""><span data-docs-theme="site-name">Default</span></nav>
<a id="btn">Get started</a><span id="ref"></span><footer data-docs-theme="footer">Default footer</footer></body></html>`;
}

const SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>';

describe.skipIf(SKIP_REASON !== null)("docs theme loader in Chromium", () => {
  let db: TestDatabase;
  let dns: CnameServer;
  let skiff: RunningSkiff;
  let pages: Server;
  let browser: Browser;

  beforeAll(async () => {
    dns = await startCnameServer();
    db = await createTestDatabase();
    skiff = await startTestServer(db.url, {
      PORT: String(SKIFF_PORT),
      SKIFF_BASE_URL: SKIFF,
      SKIFF_WORKER: "false",
      SKIFF_DOCS_DNS_SERVERS: `127.0.0.1:${dns.port}`,
    });
    const { owner, organizationId } = await createOrg(db.knex);
    const saved = await gql(
      skiff.url,
      SET_THEME,
      { org: organizationId, input: BROWSER_THEME },
      { apiKey: owner.apiKey },
    );
    expect(saved.errors).toBeUndefined();
    // This instance is its own docs host (SKIFF_DOCS_HOST_URL unset): the sync registers in-process.
    await syncWithDocsHost(skiff.services, skiff.services.log);
    pages = createServer((req, res) => {
      const url = new URL(req.url ?? "/", "http://docs.page");
      if (url.pathname.endsWith(".svg") || url.pathname.endsWith(".ico")) {
        res.writeHead(200, { "content-type": "image/svg+xml" }).end(SVG);
        return;
      }
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(docsPage(url));
    });
    await new Promise<void>((resolve) => pages.listen(PAGE_PORT, "127.0.0.1", resolve));
    browser = await launchBrowser([
      "--host-resolver-rules=MAP docs.acme.test 127.0.0.1, MAP docs.unknown.test 127.0.0.1, MAP cdn.acme.test 127.0.0.1",
    ]);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => pages?.close(resolve));
    await skiff?.stop();
    await db?.drop();
    await dns?.close();
  });

  /** A fresh tab recording page errors, console errors raised by scripts, and calls to Skiff's API. */
  async function open(context: BrowserContext) {
    const page = await context.newPage();
    const pageErrors: string[] = [];
    const consoleErrors: string[] = [];
    const apiCalls: string[] = [];
    page.on("pageerror", (e) => pageErrors.push(e.message));
    page.on("console", (m) => {
      // The browser's own network log line for an HTTP error status is not a script error.
      if (m.type() === "error" && !/^Failed to load resource/.test(m.text())) consoleErrors.push(m.text());
    });
    page.on("request", (r) => {
      if (r.url().includes("/api/")) apiCalls.push(new URL(r.url()).pathname);
    });
    return { page, pageErrors, consoleErrors, apiCalls };
  }

  // Page expressions are strings: the test's TypeScript has no DOM library.
  const cssVar = (page: Page, name: string) =>
    page.evaluate<string>(
      `getComputedStyle(document.documentElement).getPropertyValue(${JSON.stringify(name)}).trim()`,
    );
  /** `#btn`'s computed colour, and the colour `hsl(<triple>)` computes to in the same page. */
  const colours = (page: Page, triple: string) =>
    page.evaluate<{ btn: string; expected: string }>(`(() => {
      const ref = document.getElementById("ref");
      ref.style.color = "hsl(${triple})";
      return { btn: getComputedStyle(document.getElementById("btn")).color, expected: getComputedStyle(ref).color };
    })()`);
  const titled = (page: Page) => page.waitForFunction('document.title === "Acme Docs"', undefined, WAIT);

  it("applies the theme on the docs hostname, and serves a reload from sessionStorage", async () => {
    const context = await browser.newContext();
    const { page, pageErrors, consoleErrors, apiCalls } = await open(context);
    await page.goto(`http://docs.acme.test:${PAGE_PORT}/`);
    await titled(page);
    expect(apiCalls).toEqual([
      "/api/docs/lookup",
      `/o/${(await db.knex("organizations").first("database_id")).databaseId}/api/theme`,
    ]);
    expect(await page.textContent("[data-docs-theme=site-name]")).toBe("Acme Docs");
    expect(await page.getAttribute("[data-docs-theme=logo]", "src")).toBe(THEME.logoUrl);
    expect(await page.getAttribute('link[rel~="icon"]', "href")).toBe(THEME.faviconUrl);
    expect(await page.textContent("[data-docs-theme=footer]")).toBe(THEME.footerText);
    expect(await cssVar(page, "--primary")).toBe("222 47% 11%");
    expect(await cssVar(page, "--primary-foreground")).toBe("210 40% 98%");
    const light = await colours(page, "222 47% 11%");
    expect(light.btn).toBe(light.expected);
    expect(light.btn).not.toBe("rgb(128, 128, 128)");
    expect(await page.evaluate<string>('getComputedStyle(document.getElementById("btn")).fontStyle')).toBe("italic");
    expect(pageErrors).toEqual([]);
    expect(consoleErrors).toEqual([]);

    // A second load within 5 minutes: no lookup, no theme call, theme applied from sessionStorage.
    apiCalls.length = 0;
    await page.reload();
    await titled(page);
    expect(await cssVar(page, "--primary")).toBe("222 47% 11%");
    expect(apiCalls).toEqual([]);

    // Dark mode in the same tab (same session storage): colorsDark.
    await page.goto(`http://docs.acme.test:${PAGE_PORT}/dark`);
    await titled(page);
    expect(await cssVar(page, "--primary")).toBe("210 40% 98%");
    const dark = await colours(page, "210 40% 98%");
    expect(dark.btn).toBe(dark.expected);
    expect(apiCalls).toEqual([]);
    await context.close();
  });

  it("keeps the default theme silently when the lookup fails (404) or the docs host is down", async () => {
    const context = await browser.newContext();
    for (const url of [
      `http://docs.unknown.test:${PAGE_PORT}/`,
      `http://docs.acme.test:${PAGE_PORT}/?host=${encodeURIComponent(`http://127.0.0.1:${DOWN_PORT}`)}`,
    ]) {
      const { page, pageErrors, consoleErrors, apiCalls } = await open(context);
      // Listen before navigating: the lookup may fail before `goto` returns.
      const lookupFailed = url.includes("unknown")
        ? page.waitForResponse((r) => r.url().includes("/api/docs/lookup") && r.status() === 404, WAIT)
        : page.waitForEvent("requestfailed", { ...WAIT, predicate: (r) => r.url().includes("/api/docs/lookup") });
      await page.goto(url);
      await lookupFailed;
      expect(apiCalls).toEqual(["/api/docs/lookup"]);
      await page.waitForTimeout(300);
      expect(await page.title()).toBe("Default Docs");
      expect(await page.textContent("[data-docs-theme=site-name]")).toBe("Default");
      expect(await page.textContent("[data-docs-theme=footer]")).toBe("Default footer");
      expect(await cssVar(page, "--primary")).toBe("0 0% 50%");
      expect(await page.$("#skiff-docs-theme")).toBeNull();
      expect(pageErrors).toEqual([]);
      expect(consoleErrors).toEqual([]);
      await page.close();
    }
    await context.close();
  });

  it("does nothing on localhost", async () => {
    const context = await browser.newContext();
    const { page, apiCalls } = await open(context);
    await page.goto(`http://localhost:${PAGE_PORT}/`);
    await page.waitForLoadState("load");
    await page.waitForTimeout(300);
    expect(await page.title()).toBe("Default Docs");
    expect(apiCalls).toEqual([]);
    await context.close();
  });
});
