/**
 * Vitest global setup: builds the dashboard once before any test file runs when `web/dist` is missing
 * (`npm test` already built it in `pretest`; `npx vitest run` may not have), so no two files build at once.
 */
import { ensureWebBuild } from "./web-build.ts";

/** Builds web/dist when needed. */
export default async function setup(): Promise<void> {
  await ensureWebBuild();
}
