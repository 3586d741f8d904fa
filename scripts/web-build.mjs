// The dashboard's build (web/dist) with Vite, and whether web/dist is current. Plain JavaScript, as prestart.mjs
// (it runs on the system's Node before Skiff's TypeScript can). `node scripts/web-build.mjs` (`npm run build:web`)
// always builds; `npm start`'s prestart builds only when web/dist is missing or was not built from the sources now
// in the checkout: a build records the SHA-256 of its inputs (web/ without dist, src/ — the dashboard imports the
// docs theme's renderer — and package-lock.json) and of the index.html it wrote in
// node_modules/.cache/skiff-web-build.json. A restart without changes then starts at once instead of rebuilding.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const DIST = join(ROOT, "web", "dist");
const STAMP = join(ROOT, "node_modules", ".cache", "skiff-web-build.json");

/** SHA-256 (hex) of the build's inputs: every file under web/ (but web/dist) and src/, and the lock file. */
function inputsDigest() {
  const digest = createHash("sha256");
  const files = ["web", "src"].flatMap((dir) =>
    readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile() && !join(e.parentPath, e.name).startsWith(`${DIST}/`))
      .map((e) => join(e.parentPath, e.name)),
  );
  const lock = join(ROOT, "package-lock.json");
  if (existsSync(lock)) files.push(lock);
  for (const file of files.sort()) {
    digest.update(`${relative(ROOT, file)}\0`);
    digest.update(readFileSync(file));
  }
  return digest.digest("hex");
}

/** SHA-256 (hex) of web/dist/index.html, or null when there is none. */
function indexDigest() {
  const index = join(DIST, "index.html");
  return existsSync(index) ? createHash("sha256").update(readFileSync(index)).digest("hex") : null;
}

/** True when web/dist holds the build of the sources now in the checkout (its stamp matches). */
export function webBuildCurrent() {
  try {
    const stamp = JSON.parse(readFileSync(STAMP, "utf8"));
    return stamp.index !== null && stamp.index === indexDigest() && stamp.inputs === inputsDigest();
  } catch {
    return false;
  }
}

/**
 * Builds web/dist with Vite (`vite`: the path of vite's bin script) on this process's Node and records the stamp.
 * @returns Vite's exit status (0 on success); the stamp is written only on success, and its failure to be written
 * (a read-only node_modules) only means the next start builds again.
 */
export function buildWeb(vite = join(ROOT, "node_modules", "vite", "bin", "vite.js")) {
  const inputs = inputsDigest();
  const config = join(ROOT, "web", "vite.config.ts");
  const result = spawnSync(process.execPath, [vite, "build", "--config", config, "--logLevel", "warn"], {
    cwd: ROOT,
    stdio: "inherit",
  });
  if (result.status === 0) {
    try {
      mkdirSync(dirname(STAMP), { recursive: true });
      writeFileSync(STAMP, `${JSON.stringify({ inputs, index: indexDigest() })}\n`);
    } catch {
      // Not recorded: the next start builds again.
    }
  }
  return result.status ?? 1;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) process.exit(buildWeb());
