// `prestart`'s step: strips the types of Skiff's TypeScript sources (src/, migrations/, sandbox/) with Node's own
// `stripTypeScriptTypes` in strip mode — what Node does to a `.ts` file as it loads it, every line and column kept —
// into node_modules/.cache/skiff-stripped (scripts/stripped-cache.mjs), for scripts/stripped-sources.mjs to serve.
// Only sources without a copy are stripped (a first run: about 0.3 s for ~300 files); a copy no prestart has wanted
// for a week (its source edited or gone) is removed, so checkouts sharing node_modules keep theirs. Fails soft: when
// the cache cannot be written (a read-only install) it says so and Skiff still starts, stripping as it loads.
import { hash } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { stripTypeScriptTypes } from "node:module";
import { join } from "node:path";
import { ROOT, STRIPPED_DIR, strippedPath } from "./stripped-cache.mjs";

/** A copy not wanted for this long is removed, ms. */
const UNUSED_MS = 7 * 24 * 3600 * 1000;

/** The `.ts` files under `dir` of the project (recursive, declaration files left out), as paths; none when absent. */
function typeScriptFiles(dir) {
  // The image has no sandbox/ (the sandbox gateway runs beside an embedded database, not in production).
  if (!existsSync(join(ROOT, dir))) return [];
  return readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith(".ts") && !e.name.endsWith(".d.ts"))
    .map((e) => join(e.parentPath, e.name));
}

try {
  mkdirSync(STRIPPED_DIR, { recursive: true });
  const now = new Date();
  for (const file of ["src", "migrations", "sandbox"].flatMap(typeScriptFiles)) {
    const source = readFileSync(file);
    const target = strippedPath(hash("sha256", source));
    if (existsSync(target)) {
      utimesSync(target, now, now);
      continue;
    }
    const temporary = `${target}.${process.pid}.tmp`;
    writeFileSync(temporary, stripTypeScriptTypes(source.toString("utf8"), { mode: "strip" }));
    renameSync(temporary, target);
  }
  for (const name of readdirSync(STRIPPED_DIR)) {
    const path = join(STRIPPED_DIR, name);
    if (now.getTime() - statSync(path).mtimeMs > UNUSED_MS) rmSync(path, { force: true });
  }
} catch (error) {
  console.error(`prestart: sources not stripped ahead of time (${error.message}); Node strips them as it loads them`);
}
