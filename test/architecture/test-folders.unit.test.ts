/**
 * Every module of src/modules/ has its tests in test/<module>/ (named as the module folder), holding at least one
 * test file: a newcomer changing a module finds its tests in one place (docs/architecture.md, "Tests").
 */
import { existsSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "../..");
const modules = readdirSync(join(root, "src/modules"), { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name);

describe("test folders", () => {
  it("gives every module a test/<module>/ folder with a test file", () => {
    expect(modules.length).toBeGreaterThan(10);
    const missing = modules.filter((name) => {
      const dir = join(root, "test", name);
      return !existsSync(dir) || !readdirSync(dir).some((f) => f.endsWith(".test.ts"));
    });
    expect(missing).toEqual([]);
  });
});
