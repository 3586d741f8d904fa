/**
 * `npm start`'s sources stripped ahead of time (scripts/strip-sources.mjs in `prestart`, served by the load hook
 * scripts/stripped-sources.mjs): the server process then never loads Node's TypeScript stripper (amaro, about 19 MB
 * of RSS for its whole life), runs the same code at the same lines and columns, and a source with no stripped copy
 * (edited since the last `prestart`) is still stripped by Node as it loads.
 */
import { spawnSync } from "node:child_process";
import { hash, randomUUID } from "node:crypto";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Config } from "../../src/config.ts";
import { startSandboxGatewayProcess } from "../../src/server/sandbox-gateway-process.ts";
import { createTestDatabase } from "../helpers/db.ts";
import { spawnSkiff } from "../helpers/process.ts";

const root = fileURLToPath(new URL("../../", import.meta.url));
/** Node 24 from the `node` devDependency (what `npm start` uses), whatever Node runs the tests. */
const node = existsSync(join(root, "node_modules/.bin/node")) ? join(root, "node_modules/.bin/node") : process.execPath;
const cacheDir = join(root, "node_modules", ".cache", "skiff-stripped");
const HOOK = ["--import", "./scripts/stripped-sources.mjs"];

/** Runs `script` (an ES module) with Node flags `flags` in the project's root. @returns its stdout, parsed. */
function run(flags: string[], script: string): { amaro: boolean; value: unknown; line?: number } {
  const result = spawnSync(node, [...flags, "--input-type=module", "-e", script], { cwd: root, encoding: "utf8" });
  expect(result.status, result.stderr).toBe(0);
  return JSON.parse(result.stdout);
}

/** The script's last line: whether Node's TypeScript stripper was loaded, and `value`. */
const REPORT = `console.log(JSON.stringify({ amaro: process.moduleLoadList.some((m) => m.includes("amaro")), value }));`;

let scratch: string;
let versionDir: string;
beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), "skiff-stripped-"));
  const result = spawnSync(node, ["--no-warnings", "scripts/strip-sources.mjs"], { cwd: root, encoding: "utf8" });
  expect(result.status, result.stderr).toBe(0);
  expect(result.stdout + result.stderr).toBe("");
  const version = spawnSync(node, ["-p", "process.version"], { encoding: "utf8" }).stdout.trim();
  versionDir = join(cacheDir, version);
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("sources stripped ahead of time", () => {
  it("keeps a copy of every source with the same lines and columns", () => {
    const sources = ["src", "migrations", "sandbox"].flatMap((dir) =>
      readdirSync(join(root, dir), { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile() && e.name.endsWith(".ts"))
        .map((e) => join(e.parentPath, e.name)),
    );
    expect(sources.length).toBeGreaterThan(200);
    for (const file of sources) {
      const source = readFileSync(file);
      const copy = readFileSync(join(versionDir, `${hash("sha256", source)}.js`), "utf8");
      const lengths = (text: string) => text.split("\n").map((line) => line.length);
      expect(lengths(copy), file).toEqual(lengths(source.toString("utf8")));
      expect(copy, file).not.toMatch(/:\s*(string|number|boolean)\s*[,;)=]/);
    }
  });

  it("loads the server's modules without Node's TypeScript stripper, which it loads without the hook", () => {
    const load = `const { buildSchema } = await import("./src/server/schema.ts"); const value = typeof buildSchema;`;
    const hooked = run(HOOK, `${load}\n${REPORT}`);
    const plain = run([], `${load}\n${REPORT}`);
    expect(hooked).toEqual({ amaro: false, value: "function" });
    expect(plain).toEqual({ amaro: true, value: "function" });
  });

  it("starts src/main.ts as npm start does without loading Node's TypeScript stripper", async () => {
    const db = await createTestDatabase();
    const reporter = join(scratch, "report.mjs");
    writeFileSync(
      reporter,
      'process.on("exit", () => process.stderr.write("amaro loaded: " + process.moduleLoadList.some((m) => m.includes("amaro")) + "\\n"));',
    );
    const skiff = spawnSkiff({ DATABASE_URL: db.url, SKIFF_WORKER: "false", NODE_OPTIONS: `--import=${reporter}` });
    try {
      const ready = await skiff.waitForLog((record) => record.msg === "Skiff is ready");
      // Answered once its event loop turns: its signal handlers are in place by then.
      expect((await fetch(`${ready.url}/readyz`)).status).toBe(200);
      skiff.child.kill("SIGTERM");
      expect(await skiff.exited).toMatchObject({ code: 0 });
      expect(skiff.stderr()).toContain("amaro loaded: false");
    } finally {
      skiff.child.kill("SIGKILL");
      await db.drop();
    }
  });

  it("starts the sandbox payment gateway beside an embedded database without Node's TypeScript stripper", async () => {
    const report = join(scratch, "sandbox-report.txt");
    const reporter = join(scratch, "sandbox-report.mjs");
    writeFileSync(
      reporter,
      `import { writeFileSync } from "node:fs"; process.on("exit", () => writeFileSync(${JSON.stringify(report)}, "amaro loaded: " + process.moduleLoadList.some((m) => m.includes("amaro"))));`,
    );
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, "127.0.0.1", () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
    });
    const config = { SKIFF_SANDBOX_GATEWAY_PORT: port, PORT: 4000 } as unknown as Config;
    const nodeOptions = process.env.NODE_OPTIONS;
    process.env.NODE_OPTIONS = `--import=${reporter}`;
    const sandbox = startSandboxGatewayProcess(config, pino({ level: "silent" }));
    if (nodeOptions === undefined) delete process.env.NODE_OPTIONS;
    else process.env.NODE_OPTIONS = nodeOptions;
    expect(sandbox).not.toBeNull();
    try {
      await expect
        .poll(
          () =>
            fetch(`${sandbox?.url}/`).then(
              (res) => res.status,
              () => 0,
            ),
          { timeout: 20_000 },
        )
        .not.toBe(0);
    } finally {
      sandbox?.stop();
    }
    // Read until written: the file exists (empty) a moment before its text is in it.
    await expect
      .poll(() => (existsSync(report) ? readFileSync(report, "utf8") : ""), { timeout: 10_000 })
      .toBe("amaro loaded: false");
  });

  it("strips a tree without sandbox/, as the Docker image has it", () => {
    const tree = join(scratch, "image");
    for (const dir of ["scripts", "src/a", "migrations", "node_modules"])
      mkdirSync(join(tree, dir), { recursive: true });
    for (const f of ["strip-sources.mjs", "stripped-cache.mjs"])
      copyFileSync(join(root, "scripts", f), join(tree, "scripts", f));
    writeFileSync(join(tree, "src/a/x.ts"), "export const x: number = 1;\n");
    writeFileSync(join(tree, "migrations/m.ts"), 'export const y: string = "";\n');
    const result = spawnSync(node, ["--no-warnings", "scripts/strip-sources.mjs"], { cwd: tree, encoding: "utf8" });
    expect(result.stdout + result.stderr).toBe("");
    const copies = readdirSync(join(tree, "node_modules/.cache/skiff-stripped"), { recursive: true }).filter((f) =>
      String(f).endsWith(".js"),
    );
    expect(copies).toHaveLength(2);
  });

  it("reports an error's line and column as in the source", () => {
    // An ES module by its package.json, as Skiff's sources are (a file without one has its syntax detected, which
    // loads the stripper whatever the hook serves).
    writeFileSync(join(scratch, "package.json"), '{ "type": "module" }');
    const file = join(scratch, "fails.ts");
    writeFileSync(
      file,
      // A comment of its own: no copy of these bytes from an earlier run.
      `interface A {\n  a: number;\n}\nexport function fail(a: A): never {\n  throw new Error(String(a.a));\n}\n// ${randomUUID()}\n`,
    );
    const script = `const { fail } = await import(${JSON.stringify(`file://${file}`)});
let value; try { fail({ a: 1 }); } catch (e) { value = /fails\\.ts:(\\d+:\\d+)/.exec(e.stack)[1]; }
${REPORT}`;
    // Not stripped ahead of time (outside the sources): Node strips it, as for a source edited since prestart.
    expect(run(HOOK, script)).toEqual({ amaro: true, value: "5:9" });
    // Stripped the way prestart does and put where the hook looks: served, and the position is the same.
    const stripped = spawnSync(
      node,
      [
        "--no-warnings",
        "--input-type=module",
        "-e",
        `import { stripTypeScriptTypes } from "node:module"; import { readFileSync, writeFileSync } from "node:fs";
import { hash, randomUUID } from "node:crypto"; import { strippedPath } from "./scripts/stripped-cache.mjs";
const source = readFileSync(${JSON.stringify(file)});
writeFileSync(strippedPath(hash("sha256", source)), stripTypeScriptTypes(source.toString(), { mode: "strip" }));`,
      ],
      { cwd: root, encoding: "utf8" },
    );
    expect(stripped.status, stripped.stderr).toBe(0);
    try {
      expect(run(HOOK, script)).toEqual({ amaro: false, value: "5:9" });
    } finally {
      rmSync(join(versionDir, `${hash("sha256", readFileSync(file))}.js`));
    }
  });
});
