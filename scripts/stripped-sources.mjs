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
import { registerHooks } from "node:module";
import { strippedPath } from "./stripped-cache.mjs";

registerHooks({
  load(url, context, nextLoad) {
    if (url.startsWith("file:") && url.endsWith(".ts") && !url.includes("/node_modules/")) {
      let source;
      try {
        source = readFileSync(new URL(url));
      } catch {
        return nextLoad(url, context);
      }
      try {
        const stripped = readFileSync(strippedPath(hash("sha256", source)), "utf8");
        return { format: "module", source: stripped, shortCircuit: true };
      } catch {
        // Not stripped ahead of time: Node strips it.
      }
    }
    return nextLoad(url, context);
  },
});
