/**
 * The rows serving the published REST document: GET /api/openapi.json, also at
 * /api/site-import/openapi.json (a static path, so it is never read as an import id). The document is generated
 * once, on first request, from every row of the whole table that declares a contract (`doc`) — under
 * SKIFF_PUBLIC_API_ONLY, from the published ones alone.
 */
import { z } from "zod";
import { generateOpenApiDocument } from "../shared/openapi/generate.ts";
import { publicDocumentInfo } from "../shared/openapi/public-document.ts";
import { documentedRows } from "../shared/openapi/rows.ts";
import type { AnyRestRoute, StaticRestRoute } from "../shared/rest-route.ts";

/** Paths the published document is served at. */
export const PUBLIC_DOCUMENT_PATHS = ["/api/openapi.json", "/api/site-import/openapi.json"] as const;

const OpenApiBody = z
  .looseObject({ openapi: z.string(), info: z.looseObject({ title: z.string(), version: z.string() }) })
  .meta({ id: "OpenApiDocument", description: "An OpenAPI 3.1 document." });

/**
 * `routes` followed by the document rows; the document covers `routes` and the document rows themselves.
 * @throws Error (on first request) when two rows declare the same operationId or method and path.
 */
export function withOpenApiDocuments(routes: readonly AnyRestRoute[]): AnyRestRoute[] {
  /** The document of every row, and of the published ones (SKIFF_PUBLIC_API_ONLY), each built on first request. */
  const documents = new Map<boolean, Record<string, unknown>>();
  const documentRows: StaticRestRoute[] = PUBLIC_DOCUMENT_PATHS.map((path, i) => ({
    method: "GET",
    path,
    published: true,
    doc: {
      operationId: i === 0 ? "getOpenApiDocument" : "getSiteImportOpenApiDocument",
      summary: i === 0 ? "This document" : "This document, under the site import prefix",
      tag: "documents",
      security: "none",
      responses: { "200": { description: "The OpenAPI 3.1 document.", schema: OpenApiBody } },
    },
    serve: (_req, publicOnly) => {
      let document = documents.get(publicOnly);
      if (!document) {
        document = generateOpenApiDocument(publicDocumentInfo, documentedRows(all, "public", publicOnly));
        documents.set(publicOnly, document);
      }
      return { status: 200, body: document };
    },
  }));
  const all = [...routes, ...documentRows];
  return all;
}
