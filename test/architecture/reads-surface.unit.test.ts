/**
 * Compiled reads (src/reads/) have one public surface, src/reads/index.ts: every other file of src/ and bench/
 * imports only it, so the planner's, the compiler's and the statement runner's insides can change without their
 * users. (The access module's `declare module "…/reads/context.ts"` block widens `ReadStanding` where it is declared,
 * as TypeScript's declaration merging requires; it is not an import.)
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "../..");
const reads = join(root, "src", "reads");
const surface = join(reads, "index.ts");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(path);
    return e.name.endsWith(".ts") ? [path] : [];
  });
}

/** Relative specifiers of `from "…"`, `import "…"` and `import("…")` in `code`. */
function relativeImports(code: string): string[] {
  const specs: string[] = [];
  for (const m of code.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)["'](\.{1,2}\/[^"']+)["']/g)) specs.push(m[1]!);
  return specs;
}

const users = [...sourceFiles(join(root, "src")), ...sourceFiles(join(root, "bench"))].filter(
  (file) => !file.startsWith(`${reads}/`) && !file.includes("/node_modules/"),
);

describe("compiled reads' surface", () => {
  it("is src/reads/index.ts: nothing outside src/reads/ imports another of its files", () => {
    const edges = users.flatMap((file) =>
      relativeImports(readFileSync(file, "utf8")).map((spec) => ({ from: file, to: resolve(dirname(file), spec) })),
    );
    expect(edges.filter((e) => e.to === surface).length).toBeGreaterThan(10);
    const inside = edges
      .filter((e) => e.to.startsWith(`${reads}/`) && e.to !== surface)
      .map((e) => `${relative(root, e.from)} → ${relative(root, e.to)}`);
    expect(inside).toEqual([]);
  });
});
