/**
 * Which rows of the REST table go into which generated document: every row that declares a contract (`doc`), in
 * table order, published or not (a row outside the spec's published list says so in its contract). Rows without one
 * are simply left out (test/contracts lists them).
 */
import type { AnyRestRoute } from "../rest-route.ts";
import type { DocumentedRow } from "./generate.ts";
import type { OpenApiDocumentName } from "./route-doc.ts";

/**
 * The rows of `routes` declaring a contract for document `name` (`doc.document`, default `public`); with
 * `publishedOnly` (the document a SKIFF_PUBLIC_API_ONLY server serves), only the published ones: a document never
 * lists a path that answers 404.
 */
export function documentedRows(
  routes: readonly AnyRestRoute[],
  name: OpenApiDocumentName,
  publishedOnly = false,
): DocumentedRow[] {
  return routes.flatMap((route) =>
    route.doc && (route.doc.document ?? "public") === name && (route.published || !publishedOnly)
      ? [{ method: route.method, path: route.path, doc: route.doc }]
      : [],
  );
}

/** Published rows that declare no contract (not in any document), as `METHOD path`. */
export function undocumentedRows(routes: readonly AnyRestRoute[]): string[] {
  return routes.filter((route) => route.published && !route.doc).map((route) => `${route.method} ${route.path}`);
}
