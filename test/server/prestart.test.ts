/**
 * `npm start`'s prestart (scripts/prestart.mjs, scripts/web-build.mjs): the dashboard is built only when web/dist is
 * not the build of the sources now in the checkout, so a restart without changes does not rebuild it. The suite's
 * global setup (test/web/build-setup.ts) has built it from these sources already.
 */
import { spawnSync } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { webBuildCurrent } from "../../scripts/web-build.mjs";

const root = fileURLToPath(new URL("../../", import.meta.url));
/** Node 24 from the `node` devDependency (what `npm start` uses), whatever Node runs the tests. */
const node = existsSync(join(root, "node_modules/.bin/node")) ? join(root, "node_modules/.bin/node") : process.execPath;

describe("prestart", () => {
  it("keeps a current web/dist: reports it and leaves index.html as it was", () => {
    expect(webBuildCurrent()).toBe(true);
    const index = join(root, "web", "dist", "index.html");
    const before = statSync(index).mtimeMs;
    const result = spawnSync(node, ["scripts/prestart.mjs"], { cwd: root, encoding: "utf8" });
    expect(result.status, result.stderr).toBe(0);
    expect(result.stderr).toContain("the dashboard in web/dist is current");
    expect(statSync(index).mtimeMs).toBe(before);
  });
});
