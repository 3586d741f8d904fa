/**
 * Writes the typed REST client's generated files, run by `npm run codegen` after GraphQL Code Generator:
 * clients/rest/generated/openapi.json — the public document exactly as /api/openapi.json serves it (generated from
 * the REST rows' contracts) — and clients/rest/generated/skiff-api.ts, its TypeScript types and fetch client
 * (swagger-typescript-api; see docs/dependencies.md for why not openapi-typescript).
 * `npm run codegen:check` fails when either is stale.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { generateApi } from "swagger-typescript-api";
import { restRoutes } from "../src/modules/index.ts";
import { generateOpenApiDocument } from "../src/shared/openapi/generate.ts";
import { publicDocumentInfo } from "../src/shared/openapi/public-document.ts";
import { documentedRows } from "../src/shared/openapi/rows.ts";

const OUT = join(import.meta.dirname, "..", "clients", "rest", "generated");

/**
 * A copy of `node` without `allOf` lists made only of `pattern`s (zod writes a string with several regexes so). They
 * say nothing a TypeScript type can, and swagger-typescript-api 13 turns `{ type: "string", allOf: [{ pattern }…] }`
 * into `null`.
 */
function withoutPatternLists(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutPatternLists);
  if (!node || typeof node !== "object") return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    const patternsOnly =
      key === "allOf" &&
      Array.isArray(value) &&
      value.every((v) => v && typeof v === "object" && Object.keys(v).every((k) => k === "pattern"));
    if (!patternsOnly) out[key] = withoutPatternLists(value);
  }
  return out;
}

const document = generateOpenApiDocument(publicDocumentInfo, documentedRows(restRoutes, "public"));
await mkdir(OUT, { recursive: true });
await writeFile(join(OUT, "openapi.json"), `${JSON.stringify(document, null, 2)}\n`);
await generateApi({
  spec: withoutPatternLists(document),
  output: OUT,
  fileName: "skiff-api.ts",
  httpClientType: "fetch",
  enumStyle: "union",
  importFileExtension: ".ts",
  typeOnlyImports: true,
  sortTypes: true,
  sortRoutes: true,
  // Every documented status is typed (`HttpResponse<Data, Error>`); errors are answers, not exceptions.
  generateResponses: true,
  disableThrowOnError: true,
  silent: true,
  hooks: {
    // `data` is the body of any documented 2xx (the generator would type it as the first one only).
    onCreateRoute: (route) => {
      const types = (route.responseBodyInfo?.responses ?? [])
        .filter((r: { isSuccess: boolean; type?: string }) => r.isSuccess && r.type)
        .map((r: { type: string }) => r.type);
      const success = [...new Set<string>(types)];
      if (success.length > 1) route.response.type = success.join(" | ");
      return route;
    },
  },
});
