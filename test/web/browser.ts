/**
 * Browser test helpers: Debian's Chromium driven by playwright-core (no browser download), outbox links and
 * screenshots under `artifacts/screenshots/` (git-ignored).
 */
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { AxeBuilder } from "@axe-core/playwright";
import type { Knex } from "knex";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { expect } from "vitest";
import { findProgram, skipReason } from "../helpers/required-tool.ts";
import { cookieOf, postAuth, TEST_PASSWORD } from "../helpers/session.ts";

/**
 * Chromium: CHROMIUM_PATH, else Chromium's headless shell on PATH (`chromium-headless-shell`, Debian's package of
 * what Playwright runs for headless pages by default: no browser UI, no GPU process, about a third less CPU per page
 * than the full browser), which `.ci/run` installs, else `chromium` (or `chromium-browser`), else null.
 */
export const CHROMIUM_PATH = findProgram("CHROMIUM_PATH", ["chromium-headless-shell", "chromium", "chromium-browser"]);

/**
 * Why browser tests are skipped (printed once), null when they run.
 * @throws at import under CI (`CI=true`) when no Chromium is found: there they must run.
 */
export const SKIP_REASON = skipReason(
  CHROMIUM_PATH,
  "browser tests",
  "no Chromium found (install Debian's `chromium-headless-shell`, as .ci/run does, or `chromium`, or set CHROMIUM_PATH)",
);

/** Where {@link screenshot} writes: SKIFF_SCREENSHOT_DIR, else `artifacts/screenshots/` (git-ignored). */
const SCREENSHOT_DIR =
  process.env.SKIFF_SCREENSHOT_DIR ?? join(import.meta.dirname, "..", "..", "artifacts", "screenshots");

/** This worker process's Chromium, one per set of extra arguments (see {@link launchBrowser}). */
const launched = new Map<string, Promise<Browser>>();

/**
 * Headless Chromium (sandbox off: tests also run as root in containers) with extra `args`, as a lease on this worker
 * process's browser for those arguments: the files a worker runs one after another share one Chromium (a launch
 * costs about a second of CPU). Each lease's contexts are its own, and its `close()` closes them, not the browser,
 * which ends with the worker; a browser that went away is launched again.
 */
export async function launchBrowser(args: string[] = []): Promise<Browser> {
  const key = args.join("\n");
  let launching = launched.get(key);
  if (!launching) {
    launching = chromium.launch({ executablePath: CHROMIUM_PATH!, headless: true, args: ["--no-sandbox", ...args] });
    launched.set(key, launching);
    launching.then(
      (browser) => browser.once("disconnected", () => launched.delete(key)),
      () => launched.delete(key),
    );
  }
  const browser = await launching;
  const contexts = new Set<BrowserContext>();
  const own = (context: BrowserContext) => {
    contexts.add(context);
    context.once("close", () => contexts.delete(context));
    return context;
  };
  const lease: Partial<Browser> = {
    newContext: async (...options) => own(await browser.newContext(...options)),
    newPage: async (...options) => {
      const page = await browser.newPage(...options);
      own(page.context());
      return page;
    },
    close: async () => {
      await Promise.all([...contexts].map((context) => context.close().catch(() => undefined)));
    },
  };
  return new Proxy(browser, {
    get(target, property) {
      if (Object.hasOwn(lease, property)) return lease[property as keyof typeof lease];
      const value = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** Saves a full-page screenshot as `<SCREENSHOT_DIR>/<name>.png`. */
export async function screenshot(page: Page, name: string): Promise<void> {
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
}

/**
 * The first link in the newest outbox mail to `to` whose URL contains `contains`, polled for up to `timeoutMs`
 * (mails are sent by a job, after the answer that caused them). @throws when there is none by then.
 */
export async function outboxLink(knex: Knex, to: string, contains: string, timeoutMs = 20_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const rows = await knex("mail_outbox").where({ to }).orderBy("created_at", "desc").select("text");
    for (const { text } of rows as { text: string }[]) {
      const url = text.match(/https?:\/\/\S+/g)?.find((u) => u.includes(contains));
      if (url) return url;
    }
    if (Date.now() > deadline) throw new Error(`No mail to ${to} with a link containing ${contains}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Signs `email` in through `POST {base}/api/auth/sign-in/email` and returns a new browser context (base URL
 * `base`) holding the session cookie. Expects the sign-in to succeed.
 */
export async function contextSignedIn(
  browser: Browser,
  base: string,
  email: string,
  password = TEST_PASSWORD,
): Promise<BrowserContext> {
  const res = await postAuth(base, "/sign-in/email", { email, password });
  expect(res.status, `sign-in of ${email}`).toBe(200);
  const context = await browser.newContext({ baseURL: base });
  await context.addCookies(
    cookieOf(res)
      .split("; ")
      .map((pair) => {
        const i = pair.indexOf("=");
        return { name: pair.slice(0, i), value: pair.slice(i + 1), url: base };
      }),
  );
  return context;
}

/**
 * Runs axe-core (WCAG 2.0–2.2 A and AA rules, plus best practices) on the page as it is and expects no violation of
 * impact `serious` or `critical`; the failures name the rule and the offending elements. `exclude`: selectors left
 * out, e.g. a frame that runs no script (axe cannot run inside it and would wait forever).
 */
export async function expectAccessible(page: Page, what: string, exclude: string[] = []): Promise<void> {
  let builder = new AxeBuilder({ page }).withTags([
    "wcag2a",
    "wcag2aa",
    "wcag21a",
    "wcag21aa",
    "wcag22aa",
    "best-practice",
  ]);
  for (const selector of exclude) builder = builder.exclude(selector);
  const result = await builder.analyze();
  const serious = result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  expect(serious, `axe-core on ${what}`).toEqual([]);
  expect(result.passes.length, `axe-core ran its rules on ${what}`).toBeGreaterThan(10);
}

/**
 * Records every Content-Security-Policy violation in the pages of `context`: each document's
 * `securitypolicyviolation` event (reported to the test through a binding, so navigations lose none) and Chromium's
 * "Refused to …" console errors (which also cover workers). @returns the list, filled as violations happen.
 */
export async function watchCspViolations(context: BrowserContext): Promise<string[]> {
  const seen: string[] = [];
  const watch = (page: Page) =>
    page.on("console", (m) => {
      if (m.type() === "error" && /Content Security Policy/i.test(m.text())) seen.push(m.text());
    });
  context.pages().forEach(watch);
  context.on("page", watch);
  await context.exposeBinding("reportCspViolation", (_source, text: string) => {
    seen.push(text);
  });
  await context.addInitScript(() => {
    // Runs in the page (DOM types are not in the tests' compilation).
    type Violation = { violatedDirective: string; blockedURI: string };
    const page = globalThis as unknown as {
      document: { addEventListener(type: string, listener: (e: Violation) => void): void };
      reportCspViolation(text: string): void;
    };
    page.document.addEventListener("securitypolicyviolation", (e) =>
      page.reportCspViolation(`${e.violatedDirective} ${e.blockedURI}`),
    );
  });
  return seen;
}

/**
 * What has focus in `page`: its tag, aria-label and text, the labels of the group (fieldset) and form holding it, and
 * whether it is the body (focus lost).
 */
export function focused(page: Page) {
  return page.evaluate(() => {
    // Runs in the page (DOM types are not in the tests' compilation).
    type El = {
      tagName: string;
      textContent: string | null;
      getAttribute(name: string): string | null;
      closest(selector: string): El | null;
    };
    const doc = (globalThis as unknown as { document: { activeElement: El | null; body: El } }).document;
    const a = doc.activeElement;
    return {
      tag: a?.tagName.toLowerCase() ?? null,
      label: a?.getAttribute("aria-label") ?? null,
      text: a?.textContent?.trim() ?? null,
      group: a?.closest("fieldset")?.getAttribute("aria-label") ?? null,
      form: a?.closest("form")?.getAttribute("aria-label") ?? null,
      body: a === doc.body,
    };
  });
}
