// `npm start`'s first step (`prestart`). Plain JavaScript on purpose: on a production install
// (`npm ci --omit=dev`) the `node` devDependency (Node 24) is absent and npm scripts run on the system's Node,
// which may be too old to run Skiff's TypeScript; this file still runs there and says so. Then the sources' types
// stripped ahead of time (scripts/strip-sources.mjs), then the dashboard:
// built with Vite when the dev dependencies are installed and web/dist is not the build of these sources
// (scripts/web-build.mjs); otherwise a prebuilt `web/dist` (the
// Docker image's, or one copied from a build machine) is served as is; without either the API starts and the
// pages answer 503 with the build command (src/server/web.ts).
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildWeb, webBuildCurrent } from "./web-build.mjs";

/** Oldest Node major Skiff runs on (TypeScript type stripping without flags; what the tests and image use). */
const MIN_NODE_MAJOR = 24;

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const major = Number(process.versions.node.split(".")[0]);
if (major < MIN_NODE_MAJOR) {
  console.error(
    `Skiff needs Node ${MIN_NODE_MAJOR} or newer; npm runs scripts on Node ${process.versions.node} here.\n` +
      "Install Node 24 (or use the Docker image), or install with dev dependencies: the `node` devDependency " +
      "brings Node 24 for npm scripts.",
  );
  process.exit(1);
}

// The sources' types stripped ahead of time, in this process's Node (the one `start` runs): the server then never
// loads Node's TypeScript stripper (scripts/stripped-sources.mjs). Soft: on failure Node strips them as it loads them.
spawnSync(process.execPath, ["--no-warnings", join(root, "scripts", "strip-sources.mjs")], { stdio: "inherit" });

const vite = join(root, "node_modules", "vite", "bin", "vite.js");
const config = join(root, "web", "vite.config.ts");
const built = join(root, "web", "dist", "index.html");
// Vite alone may be present in a production install (another package's peer); the dashboard's build also needs
// its React plugin, a dev dependency, and the sources.
const canBuild = [vite, config, join(root, "node_modules", "@vitejs", "plugin-react", "package.json")].every((f) =>
  existsSync(f),
);
if (canBuild) {
  if (webBuildCurrent()) console.error("prestart: the dashboard in web/dist is current (built from these sources)");
  else if (buildWeb(vite) !== 0) process.exit(1);
} else if (existsSync(built)) {
  console.error("prestart: Vite is not installed (production install): serving the prebuilt dashboard in web/dist");
} else {
  console.error(
    "prestart: the dashboard is not built and Vite is not installed (production install): the API starts, the " +
      "dashboard's pages answer 503. Build it where dev dependencies are installed (`npm run build:web`) and " +
      "copy web/dist here, or run the Docker image (it ships the built dashboard).",
  );
}
