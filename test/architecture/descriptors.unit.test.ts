/**
 * Table descriptors (src/reads/tables.ts): a table's GraphQL type, name and visibility are said once, by its
 * owning module's descriptor. Relations of the compiled reads name their target by its descriptor
 * (`belongsTo(projectTable, "project_id")`), never by type and table strings, so a relation always applies the
 * target's visibility; services read rows by id through src/reads/by-id.ts with that same SQL visibility, so no
 * module keeps hand-written by-id loaders or a JavaScript copy of a visibility rule (`canSee…`).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "../..");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(path);
    return e.name.endsWith(".ts") ? [path] : [];
  });
}

const files = sourceFiles(join(root, "src"));
const rel = (file: string) => relative(root, file);

/** Code without comments (string contents stay). */
function withoutComments(code: string): string {
  return code.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`\\])\/\/.*$/gm, "$1");
}

describe("table descriptors", () => {
  it("relations name their target by its descriptor, not by type or table strings", () => {
    const reads = files.filter((f) => f.endsWith(".reads.ts"));
    expect(reads.length).toBeGreaterThan(10);
    const stringTargets = reads.flatMap((file) =>
      [...withoutComments(readFileSync(file, "utf8")).matchAll(/\b(belongsTo|hasMany)\(\s*["'`]/g)].map(
        (m) => `${rel(file)}: ${m[1]}(<string>…)`,
      ),
    );
    expect(stringTargets).toEqual([]);
  });

  it("no JavaScript copy of a visibility rule (`canSee…`) and no hand-written by-id loaders", () => {
    const canSee = files.flatMap((file) =>
      /\bcanSee[A-Z]\w*/.test(withoutComments(readFileSync(file, "utf8"))) ? [rel(file)] : [],
    );
    expect(canSee).toEqual([]);
    expect(files.filter((f) => f.endsWith(".loaders.ts")).map(rel)).toEqual([]);
  });
});
