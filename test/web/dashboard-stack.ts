/**
 * What a dashboard page test runs against: the built dashboard (web/dist), a migrated test database, a real Skiff
 * serving both on 127.0.0.1:`port` (a fixed port below the ephemeral range, so SKIFF_BASE_URL and the page origin
 * agree) and Debian's Chromium through playwright-core.
 */
import type { Browser } from "playwright-core";
import type { RunningSkiff } from "../../src/server/start.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { startTestServer } from "../helpers/server.ts";
import { launchBrowser } from "./browser.ts";
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
