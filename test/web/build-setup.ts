/**
 * Vitest global setup: builds the dashboard once before any test file runs when `web/dist` is not the build
 * of the sources in the checkout (`npm test` and `npx vitest run` alike), so no two files build at once.
 */
import { ensureWebBuild } from "./web-build.ts";

/** Builds web/dist when needed. */
export default async function setup(): Promise<void> {
  await ensureWebBuild();
}
