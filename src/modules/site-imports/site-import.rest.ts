/**
 * REST rows of the site import API: the four documented paths (spec: Endpoints → Site import, Errors) and the
 * internal procedure surface `siteImport.*` under `/api/` (spec: Procedure interface; unpublished, so
 * SKIFF_PUBLIC_API_ONLY=true hides them). Rows only map HTTP to the operations in site-import.operations.ts.
 *
 * Documented paths — success: the data itself (import result, preview, array of records, one record);
 * POST /api/site-import answers 422 when the status is partial or failed, 202 when the run outlasted the wait limit
 * (status pending); its `Idempotency-Key` header and the procedure's `idempotencyKey` reach `importSite`'s argument
 * (a key reused with another request: 422 `IDEMPOTENCY_KEY_REUSED`). Errors: 400
 * `{ error, details: { fieldErrors, formErrors } }`; 401, 403, 404, 409 and 500 `{ error }` (500 adds `errorId`).
 *
 * Procedures — POST `/api/siteImport.<name>` with the JSON input as body; queries (`preview`, `list`, `get`)
 * also GET with `?input=<URL-encoded JSON>`. Success: 200 `{ result: { data } }` (an import or retry that ends
 * partial or failed is still a result: 200, see `data.status`). Error: status by code (400, 401, 403, 404,
 * 409, 422, 500) with `{ error: { message, code, fieldErrors?, formErrors?, errorId? } }`.
 */
import type { RouteDoc } from "../../shared/openapi/route-doc.ts";
import { procedureError } from "../../shared/procedure-error.ts";
import type { RestError, RestRequest, RestResponse, RestRoute } from "../../shared/rest-route.ts";
import { siteImportDocs } from "./site-import.openapi.ts";
import {
  deleteVariables,
  idVariables,
  keyedImportVariables,
  listQueryVariables,
  listVariables,
  OPERATIONS,
  procedureImportVariables,
  procedureInput,
} from "./site-import.operations.ts";

type Data = Record<string, unknown>;

/** Fields of an import result left out of REST bodies when null (spec: optional fields). */
const OPTIONAL_RESULT_FIELDS = [
  "databaseId",
  "databaseType",
  "databaseServiceHost",
  "domainId",
  "errorMessage",
  "errorStep",
];

/** The import result as the REST body: optional fields only when present. */
function resultBody(result: Data): Data {
  return Object.fromEntries(
    Object.entries(result).filter(([key, value]) => value !== null || !OPTIONAL_RESULT_FIELDS.includes(key)),
  );
}

/** The preview as the REST body: `existingImport` only when an idempotency key names one (spec: preview fields). */
function previewBody(preview: Data): Data {
  const { existingImport, ...rest } = preview;
  return existingImport ? { ...rest, existingImport } : rest;
}

/** Spec error bodies: `{ error }`, plus `details` for invalid input (400) and `errorId` for masked failures. */
function documentedError(error: RestError, status: number): RestResponse {
  const ext = error.extensions ?? {};
  if (status === 400) {
    return {
      status,
      body: { error: error.message, details: { fieldErrors: ext.fieldErrors ?? {}, formErrors: ext.formErrors ?? [] } },
    };
  }
  return { status, body: ext.errorId ? { error: error.message, errorId: ext.errorId } : { error: error.message } };
}

/** The records of a `siteImports` connection. */
function nodesOf(connection: unknown): unknown[] {
  return (connection as { edges: Array<{ node: unknown }> }).edges.map((e) => e.node);
}

/** `siteImport.list` body: `{ items, totalCount, limit, offset, hasMore }` (limit/offset echo the validated input). */
function listPage(data: Data, variables: Data): Data {
  const page = data.siteImports as { pageInfo: { hasNextPage: boolean }; totalCount: number };
  return {
    items: nodesOf(page),
    totalCount: page.totalCount,
    limit: variables.limit,
    offset: variables.offset,
    hasMore: page.pageInfo.hasNextPage,
  };
}

/**
 * The organization a row acts on (RestRoute.organization): an import or preview names it (`organizationId` of the
 * request, any the caller belongs to); the list and every read or change by id act on the caller's organization —
 * a session's active one, an API key's bound one (spec: Site import rule 8: another organization's import is 404).
 */
const organizationOf = (name: keyof typeof OPERATIONS) =>
  name === "import" || name === "preview" ? "named" : "active";

/** A documented (published) row with its contract. */
function documented(
  doc: RouteDoc,
  method: RestRoute["method"],
  path: string,
  name: keyof typeof OPERATIONS,
  variables: (req: RestRequest) => Data,
  respond: (data: Data) => RestResponse,
): RestRoute {
  return {
    method,
    path,
    surface: "rest",
    organization: organizationOf(name),
    published: true,
    doc,
    operation: OPERATIONS[name],
    variables,
    respond,
    error: documentedError,
  };
}

/** Rows of procedure `siteImport.<name>`: POST, and also GET for queries. */
function procedure(
  name: Exclude<keyof typeof OPERATIONS, "records">,
  kind: "query" | "mutation",
  variables: (input: unknown, req: RestRequest) => Data,
  pick: (data: Data, variables: Data) => unknown,
): RestRoute[] {
  const methods: Array<"GET" | "POST"> = kind === "query" ? ["GET", "POST"] : ["POST"];
  return methods.map((method) => ({
    method,
    path: `/api/siteImport.${name}`,
    surface: "rest",
    organization: organizationOf(name),
    published: false,
    operation: OPERATIONS[name],
    variables: (req) => variables(procedureInput(req, method), req),
    respond: (data, vars) => ({ status: 200, body: { result: { data: pick(data, vars) } } }),
    error: procedureError,
  }));
}

/** Every site import row, in registration order. */
export const siteImportRoutes: readonly RestRoute[] = [
  documented(siteImportDocs.import, "POST", "/api/site-import", "import", keyedImportVariables, (data) => {
    const result = data.importSite as Data;
    const status = result.status === "success" ? 200 : result.status === "pending" ? 202 : 422;
    return { status, body: resultBody(result) };
  }),
  documented(siteImportDocs.preview, "POST", "/api/site-import/preview", "preview", keyedImportVariables, (data) => ({
    status: 200,
    body: previewBody(data.previewSiteImport as Data),
  })),
  documented(siteImportDocs.list, "GET", "/api/site-import", "records", listQueryVariables, (data) => ({
    status: 200,
    body: nodesOf(data.siteImports),
  })),
  documented(
    siteImportDocs.get,
    "GET",
    "/api/site-import/:id",
    "get",
    (req) => ({ id: req.params.id }),
    (data) => ({ status: 200, body: data.siteImport }),
  ),
  ...procedure("import", "mutation", procedureImportVariables, (data) => data.importSite),
  ...procedure("preview", "query", procedureImportVariables, (data) => data.previewSiteImport),
  ...procedure("list", "query", listVariables, listPage),
  ...procedure("get", "query", idVariables, (data) => data.siteImport),
  ...procedure("retry", "mutation", idVariables, (data) => data.retrySiteImport),
  ...procedure("delete", "mutation", deleteVariables, (data) => data.deleteSiteImport),
];
