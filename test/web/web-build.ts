/**
 * The dashboard's build (web/dist) for the tests that serve it: apart from test/web/browser.ts, so that building or
 * serving it needs no Chromium.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { WEB_DIST_DIR } from "../../src/server/web.ts";

/** Builds the dashboard into web/dist unless it is there (npm test's `pretest` normally did it). */
export async function ensureWebBuild(): Promise<void> {
  if (existsSync(join(WEB_DIST_DIR, "index.html"))) return;
  const { build } = await import("vite");
  await build({ configFile: join(import.meta.dirname, "..", "..", "web", "vite.config.ts"), logLevel: "warn" });
}
