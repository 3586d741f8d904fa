/**
 * The import graph keeps one direction (issue: kernel, "a shared layer below the modules"): the transport
 * (`src/server/`) imports modules; modules import the layers below (`src/jobs/`, `src/shared/`, `src/auth/`,
 * `src/db/`, `src/config.ts`, `src/http/`); nothing below imports a module or the transport. The instance's
 * service bundle (`AppServices`) is the modules' own type (src/modules/services.ts); jobs receive it generically. Entry points
 * (`src/main.ts`, `src/cli.ts`, `src/telemetry.ts`) may import anything. Reads every import and re-export
 * specifier (static and dynamic, type-only included) of every file under src/.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "../..");
const src = join(root, "src");

/** Layer of a file under src/ (generated resolver types belong to the modules' layer). */
function layerOf(file: string): string {
  const rel = relative(src, file);
  const [first] = rel.split(/[\\/]/);
  if (rel === "main.ts" || rel === "cli.ts" || rel === "telemetry.ts") return "entry";
  if (rel === "config.ts") return "config";
  if (first === "generated") return "modules";
  return first ?? rel;
}

/** What each layer may import (besides itself). */
const ALLOWED: Record<string, readonly string[]> = {
  entry: ["server", "modules", "jobs", "http", "shared", "auth", "db", "config"],
  server: ["modules", "jobs", "http", "shared", "auth", "db", "config"],
  modules: ["jobs", "http", "shared", "auth", "db", "config"],
  jobs: ["http", "shared", "auth", "db", "config"],
  shared: ["auth", "db", "config", "http"],
  auth: ["db", "config", "http"],
  db: ["config", "http"],
  // Configuration validates SKIFF_OUTBOUND_ALLOW with the outbound client's own parser.
  config: ["http"],
  http: [],
};

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

const edges = sourceFiles(src).flatMap((file) =>
  relativeImports(readFileSync(file, "utf8")).map((spec) => {
    const target = resolve(dirname(file), spec);
    return {
      from: relative(root, file),
      to: relative(root, target),
      fromLayer: layerOf(file),
      toLayer: layerOf(target),
    };
  }),
);

describe("layers", () => {
  it("reads the import graph, and every folder under src/ has a layer", () => {
    expect(edges.length).toBeGreaterThan(200);
    const unknown = edges.filter((e) => !(e.fromLayer in ALLOWED) || !(e.toLayer in ALLOWED));
    expect(unknown.map((e) => `${e.from} → ${e.to}`)).toEqual([]);
  });

  it("imports only downwards: no module imports the transport, nothing below imports a module", () => {
    const wrong = edges
      .filter((e) => e.fromLayer !== e.toLayer && !ALLOWED[e.fromLayer]?.includes(e.toLayer))
      .map((e) => `${e.from} (${e.fromLayer}) → ${e.to} (${e.toLayer})`);
    expect(wrong).toEqual([]);
  });

  it("has no cycle between folders", () => {
    const graph = new Map<string, Set<string>>();
    for (const e of edges) {
      if (e.fromLayer === e.toLayer) continue;
      graph.set(e.fromLayer, (graph.get(e.fromLayer) ?? new Set()).add(e.toLayer));
    }
    const cycles: string[] = [];
    const visit = (node: string, path: string[]) => {
      if (path.includes(node)) {
        cycles.push([...path.slice(path.indexOf(node)), node].join(" → "));
        return;
      }
      for (const next of graph.get(node) ?? []) visit(next, [...path, node]);
    };
    for (const node of graph.keys()) visit(node, []);
    expect(cycles).toEqual([]);
  });
});
