/**
 * What a dashboard page test runs against: the built dashboard (web/dist), a migrated test database, a real Skiff
 * serving both on 127.0.0.1:`port` (a fixed port below the ephemeral range, so SKIFF_BASE_URL and the page origin
 * agree) and Debian's Chromium through playwright-core.
 */
import type { Browser, BrowserContext } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import type { RunningSkiff } from "../../src/server/start.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { setPassword } from "../helpers/seed.ts";
import { startTestServer } from "../helpers/server.ts";
import { TEST_PASSWORD } from "../helpers/session.ts";
import { contextSignedIn, launchBrowser } from "./browser.ts";
import { ensureWebBuild } from "./web-build.ts";

/** A started stack; {@link DashboardStack.stop} closes the browser, stops Skiff and drops the database. */
export interface DashboardStack {
  db: TestDatabase;
  skiff: RunningSkiff;
  browser: Browser;
  /** `http://127.0.0.1:<port>`, Skiff's SKIFF_BASE_URL. */
  base: string;
  stop(): Promise<void>;
}

/** Starts the stack on `port`, with `env` added to the server's settings (e.g. `SKIFF_WORKER: "false"`). */
export async function startDashboardStack(port: number, env: Record<string, string> = {}): Promise<DashboardStack> {
  await ensureWebBuild();
  const base = `http://127.0.0.1:${port}`;
  const db = await createTestDatabase();
  const skiff = await startTestServer(db.url, { PORT: String(port), SKIFF_BASE_URL: base, ...env });
  const browser = await launchBrowser();
  return {
    db,
    skiff,
    browser,
    base,
    async stop() {
      await browser.close();
      await skiff.stop();
      await db.drop();
    },
  };
}

/** A test file's stack: {@link useDashboardStack}. */
export interface FileDashboardStack {
  /** The started stack (inside the file's tests and hooks, once its own `beforeAll` has run). */
  started(): DashboardStack;
  /** A browser context signed in as `user` (its password set to the test password first). */
  signedIn(user: { userId: string; email: string }): Promise<BrowserContext>;
}

/**
 * Starts the stack on `port` before the calling file's (or `describe`'s) tests and stops it after them, `env` added
 * to the server's settings. Call it before the file's own `beforeAll` hooks, which run after its.
 */
export function useDashboardStack(port: number, env: Record<string, string> = {}): FileDashboardStack {
  let stack: DashboardStack | undefined;
  beforeAll(async () => {
    stack = await startDashboardStack(port, env);
  });
  afterAll(async () => {
    await stack?.stop();
  });
  const started = () => {
    if (!stack) throw new Error("The dashboard stack is not started yet");
    return stack;
  };
  return {
    started,
    async signedIn(user) {
      const { db, browser, base } = started();
      await setPassword(db.knex, user.userId, TEST_PASSWORD);
      return contextSignedIn(browser, base, user.email);
    },
  };
}
