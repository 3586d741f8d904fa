/**
 * Browser test helpers: Debian's Chromium driven by playwright-core (no browser download), the dashboard build,
 * outbox links and screenshots under `artifacts/screenshots/` (git-ignored).
 */
import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import type { Knex } from "knex";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { expect } from "vitest";
import { WEB_DIST_DIR } from "../../src/server/web.ts";
import { cookieOf, postAuth, TEST_PASSWORD } from "../helpers/session.ts";

/** Chromium binary: CHROMIUM_PATH, else Debian's `/usr/bin/chromium`; null when none exists. */
export const CHROMIUM_PATH =
  [process.env.CHROMIUM_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser"].find((p) => p && existsSync(p)) ?? null;

/** Why browser tests are skipped, printed once; null when they run. */
export const SKIP_REASON = CHROMIUM_PATH
  ? null
  : "browser tests skipped: no Chromium found (install Debian's `chromium`, as .ci/run does, or set CHROMIUM_PATH)";

const SCREENSHOT_DIR = join(import.meta.dirname, "..", "..", "artifacts", "screenshots");

/** Builds the dashboard into web/dist unless it is there (npm test's `pretest` normally did it). */
export async function ensureWebBuild(): Promise<void> {
  if (existsSync(join(WEB_DIST_DIR, "index.html"))) return;
  const { build } = await import("vite");
  await build({ configFile: join(import.meta.dirname, "..", "..", "web", "vite.config.ts"), logLevel: "warn" });
}

/** Launches headless Chromium (sandbox off: tests also run as root in containers), with extra `args`. */
export function launchBrowser(args: string[] = []): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH!, headless: true, args: ["--no-sandbox", ...args] });
}

/** Saves a full-page screenshot as `artifacts/screenshots/<name>.png`. */
export async function screenshot(page: Page, name: string): Promise<void> {
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
}

/** The first link in the newest outbox mail to `to` whose URL contains `contains`. @throws when there is none. */
export async function outboxLink(knex: Knex, to: string, contains: string): Promise<string> {
  const rows = await knex("mail_outbox").where({ to }).orderBy("created_at", "desc").select("text");
  for (const { text } of rows as { text: string }[]) {
    const url = text.match(/https?:\/\/\S+/g)?.find((u) => u.includes(contains));
    if (url) return url;
  }
  throw new Error(`No mail to ${to} with a link containing ${contains}`);
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
