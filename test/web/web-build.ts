/**
 * The dashboard's build (web/dist) for the tests that serve it: apart from test/web/browser.ts, so that building or
 * serving it needs no Chromium.
 */
import { buildWeb, webBuildCurrent } from "../../scripts/web-build.mjs";

/**
 * Builds the dashboard into web/dist unless it is the build of the sources now in the checkout (its stamp
 * says so): the browser tests then never test a stale dashboard.
 * @throws when Vite's build fails.
 */
export async function ensureWebBuild(): Promise<void> {
  if (webBuildCurrent()) return;
  const status = buildWeb();
  if (status !== 0) throw new Error(`the dashboard's build failed (vite exited ${status})`);
}
