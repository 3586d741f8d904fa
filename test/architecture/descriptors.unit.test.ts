/**
 * Table descriptors (src/reads/tables.ts): a table's GraphQL type, name and visibility are said once, by its
 * owning module's descriptor. Relations of the compiled reads name their target by its descriptor
 * (`belongsTo(projectTable, "project_id")`), never by type and table strings, so a relation always applies the
 * target's visibility; services read rows by id through src/reads/by-id.ts with that same SQL visibility, so no
 * module keeps hand-written by-id loaders or a JavaScript copy of a visibility rule (`canSee…`). A field of a
 * descriptor's type that is a plain column is derived from the descriptor's column list (src/reads/columns.ts), never
 * written by hand in a reads file.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { moduleColumnFields } from "../../src/modules/index.ts";

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

  it("no reads file writes by hand a plain column the descriptors derive", () => {
    const derived = new Set(moduleColumnFields.map((f) => `${f.typeName}.${f.field} ${f.helper}("${f.column}")`));
    const reads = files.filter((f) => f.endsWith(".reads.ts"));
    const handWritten = reads.flatMap((file) => {
      let type = "";
      return withoutComments(readFileSync(file, "utf8"))
        .split("\n")
        .flatMap((line) => {
          type = /^ {2}(\w+): /.exec(line)?.[1] ?? type;
          const m = /^ {4}(\w+): (column|timestamp|checkedEnum)\(\s*"(\w+)"\s*\),?$/.exec(line);
          const declared = m && `${type}.${m[1]} ${m[2]}("${m[3]}")`;
          return declared && derived.has(declared) ? [`${rel(file)}: ${declared}`] : [];
        });
    });
    expect(handWritten).toEqual([]);
  });
});
