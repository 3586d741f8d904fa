// Skiff's TypeScript sources with their types stripped ahead of time (`npm start`: `node --import
// ./scripts/stripped-sources.mjs src/main.ts`). Node strips a `.ts` module's types as it loads it, with its
// TypeScript stripper (amaro: a WebAssembly build of swc) loaded into the process for that — about 19 MB of RSS
// kept for the process's whole life, for code that runs only at start. `prestart` (scripts/strip-sources.mjs) strips
// the sources once, in a process of its own, with the same Node function in the same mode; this load hook hands
// Node that JavaScript for every `.ts` file whose bytes are those stripped, so the stripper is never loaded.
// Same code, same URLs (`import.meta.url`, stack traces: stripping keeps every line and column); a source with no
// stripped copy (edited since, or no `prestart`) goes to Node's own stripping, as without this file.
// Plain JavaScript on purpose: it loads before any TypeScript.
import { hash } from "node:crypto";
import { readFileSync } from "node:fs";
import { enableCompileCache, registerHooks } from "node:module";
import { strippedPath } from "./stripped-cache.mjs";

// V8's compiled code of every module kept on disk between starts (Node's compile cache, keyed by each file's
// contents): a start then compiles only what changed, about a tenth less CPU to /readyz. Under node_modules/.cache
// like other tools' caches; where that is not writable (a read-only image) Node carries on without it, and
// NODE_COMPILE_CACHE, when set, is used instead.
enableCompileCache(new URL("../node_modules/.cache/node-compile-cache", import.meta.url).pathname);

/** What a stripped copy is loaded as, by the format Node gives the TypeScript file it replaces. */
const STRIPPED_FORMAT = { "module-typescript": "module", "commonjs-typescript": "commonjs" };

registerHooks({
  load(url, context, nextLoad) {
    // Node's own load reads the file and names its format; it strips later, only for a TypeScript format (or
    // already here for a file in no package with a "type", whose syntax it detects: Skiff's sources are in one).
    const loaded = nextLoad(url, context);
    const format = STRIPPED_FORMAT[loaded.format];
    if (!format || loaded.source == null || url.includes("/node_modules/")) return loaded;
    try {
      return { format, source: readFileSync(strippedPath(hash("sha256", loaded.source)), "utf8") };
    } catch {
      return loaded; // not stripped ahead of time: Node strips it
    }
  },
});
