/**
 * The import graph keeps one direction (a shared layer below the modules): the transport
 * (`src/server/`) imports modules; modules import the layers below (`src/reads/`, `src/jobs/`, `src/shared/`, `src/auth/`,
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
  entry: ["server", "modules", "reads", "jobs", "http", "shared", "auth", "db", "config"],
  server: ["modules", "reads", "jobs", "http", "shared", "auth", "db", "config"],
  modules: ["reads", "jobs", "http", "shared", "auth", "db", "config"],
  // Compiled reads: the planner and SQL/JSON writer the modules declare their fields with; below the modules.
  reads: ["shared", "db", "config"],
  jobs: ["http", "shared", "auth", "db", "config"],
  shared: ["db", "config", "http"],
  // Who is calling: credential strategies and the access policy, which throws the shared errors and states
  // visibility as compiled reads' SQL conditions.
  auth: ["reads", "shared", "db", "config", "http"],
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

  it("the transport and the entry import a module folder only through its index.ts", () => {
    const internal = edges
      .filter(
        (e) =>
          (e.fromLayer === "server" || e.fromLayer === "entry") &&
          /^src\/modules\/[^/]+\//.test(e.to) &&
          !e.to.endsWith("/index.ts"),
      )
      .map((e) => `${e.from} → ${e.to}`);
    expect(internal).toEqual([]);
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

/**
 * Inside `src/modules/` every module folder is a unit: a module imports
 * another only through that module's `index.ts`, and the graph of modules has no cycle (type-only imports count).
 * The files directly in `src/modules/` are the modules' kernel (manifest type, context, services, compiled reads)
 * and the registry (`index.ts`, `openapi.routes.ts`); they are not a unit of the graph, import modules only through
 * their `index.ts`, and no module file imports the registry. The allowed direction between domains is
 * {@link DOMAIN_ORDER}: a module may import only modules listed after it.
 */
const modulesDir = join(src, "modules");

/** The module folder of a file, or null for the kernel and registry files directly in src/modules/. */
function moduleOf(file: string): string | null {
  const rel = relative(modulesDir, file);
  if (rel.startsWith("..")) return null;
  const parts = rel.split(/[\\/]/);
  return parts.length > 1 ? parts[0]! : null;
}

/**
 * Allowed direction between domains, highest first: a module imports only modules listed after it
 * (site-imports → deployments → applications → databases/providers → projects → organizations → access; webhooks and
 * the live subscriptions listen to domain events through src/shared/events and nobody imports them, but the
 * organization export of transfer, which reads every module through its export function).
 */
const DOMAIN_ORDER = [
  "transfer",
  "system",
  "agent",
  "docs-theming",
  "payments",
  "webhooks",
  "site-imports",
  "deployments",
  "applications",
  "databases",
  "providers",
  "projects",
  "api-keys",
  "team",
  "mail",
  "organizations",
  "audit",
  "access",
] as const;

const moduleEdges = edges
  .map((e) => ({ ...e, fromModule: moduleOf(resolve(root, e.from)), toModule: moduleOf(resolve(root, e.to)) }))
  .filter((e) => e.fromLayer === "modules" && e.toLayer === "modules" && e.from.startsWith("src/modules/"));

const moduleGraph = new Map<string, Set<string>>();
for (const e of moduleEdges) {
  if (e.fromModule && e.toModule && e.fromModule !== e.toModule) {
    moduleGraph.set(e.fromModule, (moduleGraph.get(e.fromModule) ?? new Set()).add(e.toModule));
  }
}

describe("modules", () => {
  it("prints the module graph", () => {
    const lines = [...moduleGraph.keys()].sort().map((m) => `${m} → ${[...moduleGraph.get(m)!].sort().join(", ")}`);
    console.log(`module graph (${moduleGraph.size} importing modules):\n  ${lines.join("\n  ")}`);
    expect(moduleGraph.size).toBeGreaterThan(5);
  });

  it("every module folder is listed in the allowed direction", () => {
    const folders = readdirSync(modulesDir, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort();
    expect(folders).toEqual([...DOMAIN_ORDER].sort());
  });

  it("imports another module only through its index.ts, and the registry from no module", () => {
    const internal = moduleEdges
      .filter((e) => e.toModule !== null && e.fromModule !== e.toModule && !e.to.endsWith("/index.ts"))
      .map((e) => `${e.from} → ${e.to}`);
    const registry = moduleEdges
      .filter(
        (e) => e.fromModule !== null && (e.to === "src/modules/index.ts" || e.to === "src/modules/openapi.routes.ts"),
      )
      .map((e) => `${e.from} → ${e.to}`);
    expect([...internal, ...registry]).toEqual([]);
  });

  it("has no cycle between modules (type-only imports included)", () => {
    const cycles: string[] = [];
    const visit = (node: string, path: string[]) => {
      if (path.includes(node)) {
        cycles.push([...path.slice(path.indexOf(node)), node].join(" → "));
        return;
      }
      for (const next of moduleGraph.get(node) ?? []) visit(next, [...path, node]);
    };
    for (const node of moduleGraph.keys()) visit(node, []);
    expect(cycles).toEqual([]);
  });

  it("has consumers of domain events that no module imports (producers emit through src/modules/events.ts)", () => {
    // The organization transfer reads the endpoints through the manifest's export function and creates them through
    // its `createWebhook` (the import), nothing else.
    const importers = [...moduleGraph]
      .filter(([from, tos]) => tos.has("webhooks") && from !== "transfer")
      .map(([from]) => from);
    expect(importers).toEqual([]);
    // Only the registry, the export's and the import's services and the generated resolver types (codegen mappers)
    // name the webhooks module's files.
    const others = edges.filter(
      (e) =>
        e.to.startsWith("src/modules/webhooks/") &&
        !e.from.startsWith("src/modules/webhooks/") &&
        e.from !== "src/modules/index.ts" &&
        !(
          (e.from === "src/modules/transfer/organization-export.service.ts" ||
            e.from === "src/modules/transfer/organization-import.service.ts") &&
          e.to === "src/modules/webhooks/index.ts"
        ) &&
        !e.from.startsWith("src/generated/"),
    );
    expect(others.map((e) => `${e.from} → ${e.to}`)).toEqual([]);
  });

  it("publishes live events only through the events bus (no module file calls pubsub.publish)", () => {
    const publishers = sourceFiles(modulesDir)
      .filter((f) => moduleOf(f) !== null && /\bpubsub\.publish\(/.test(readFileSync(f, "utf8")))
      .map((f) => relative(root, f));
    expect(publishers).toEqual([]);
  });

  it("imports only in the allowed direction between domains", () => {
    const rank = (m: string) => DOMAIN_ORDER.indexOf(m as (typeof DOMAIN_ORDER)[number]);
    const upward = [...moduleGraph].flatMap(([from, tos]) =>
      [...tos].filter((to) => rank(to) <= rank(from)).map((to) => `${from} → ${to}`),
    );
    expect(upward).toEqual([]);
  });
});
