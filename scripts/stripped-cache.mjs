// Where stripped sources are kept (scripts/strip-sources.mjs writes them, scripts/stripped-sources.mjs reads them):
// node_modules/.cache/skiff-stripped/<Node version>/<SHA-256 of the TypeScript source>.js — keyed by the source's
// bytes, so an edited file simply has no copy, and by Node's version, whose stripper made them.
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The project's root directory. */
export const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** The directory of this Node version's stripped sources. */
export const STRIPPED_DIR = join(ROOT, "node_modules", ".cache", "skiff-stripped", process.version);

/** The stripped copy of the source whose SHA-256 (hex) is `digest`. */
export function strippedPath(digest) {
  return join(STRIPPED_DIR, `${digest}.js`);
}
