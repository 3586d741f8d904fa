/**
 * The GraphQL documents the REST rows and procedures of the site import API execute in-process, and the
 * request parsing they share. Each row validates its input with the service's own zod schemas (so REST gets
 * the same precise `fieldErrors`) and passes the request on unchanged; the service validates again.
 */

import { BadUserInputError } from "../../shared/errors.ts";
import { parseQuery } from "../../shared/query-params.ts";
import { queryParam, type RestRequest } from "../../shared/rest-route.ts";
import { parseInput, toBadUserInput } from "../../shared/validate.ts";
import { parseIdempotencyKey } from "./site-import.idempotency.ts";
import {
  deleteArgsSchema,
  listArgsSchema,
  listQueryDefaults,
  listQuerySchema,
  parseSiteImportRequest,
  siteImportIdSchema,
} from "./site-import.schema.ts";

/** Fields of an import result (spec: Import result). */
const RESULT = `importId status projectId applicationId databaseId databaseType databaseServiceHost domainId errorMessage errorStep`;

/** Fields of a full import record (REST list items and GET by id). */
const RECORD = `id organizationId name status inputConfig projectId databaseId databaseType databaseServiceHost
  applicationId domainId deploymentId errorStep errorMessage attempts createdAt updatedAt finishedAt`;

const PREVIEW = `valid warnings errors resources {
  project { name } database { type name } application { name sourceType buildType } domain { host } }
  existingImport { id status }`;

/** Named operations: one per service method, plus `records` (the REST list: items only, no count). */
export const OPERATIONS = {
  import: `mutation ImportSite($input: SiteImportInput!, $idempotencyKey: String) {
    importSite(input: $input, idempotencyKey: $idempotencyKey) { ${RESULT} } }`,
  preview: `query PreviewSiteImport($input: SiteImportInput!, $idempotencyKey: String) {
    previewSiteImport(input: $input, idempotencyKey: $idempotencyKey) { ${PREVIEW} } }`,
  list: `query ListSiteImports($limit: Int, $offset: Int) {
    siteImports(first: $limit, offset: $offset) { edges { node { ${RECORD} } } pageInfo { hasNextPage } totalCount } }`,
  records: `query ListSiteImportRecords($limit: Int, $offset: Int) {
    siteImports(first: $limit, offset: $offset) { edges { node { ${RECORD} } } } }`,
  get: `query GetSiteImport($id: ID!) { siteImport(id: $id) { ${RECORD} } }`,
  retry: `mutation RetrySiteImport($id: ID!) { retrySiteImport(id: $id) { ${RESULT} } }`,
  delete: `mutation DeleteSiteImport($id: ID!, $rollbackResources: Boolean) {
    deleteSiteImport(id: $id, rollbackResources: $rollbackResources) { id rolledBack deletedProjectId } }`,
} as const;

/** Variables of `import`/`preview`: the request body, once it passes the import schema. @throws BadUserInputError. */
export function importVariables(input: unknown): Record<string, unknown> {
  parseSiteImportRequest(input);
  return { input };
}

/** The `Idempotency-Key` request header (docs/site-imports.md, "Idempotent requests"). */
export const IDEMPOTENCY_HEADER = "idempotency-key";

/**
 * Variables of `import` and `preview` on the documented paths: the request body, and the key of the `Idempotency-Key` header.
 * @throws BadUserInputError (invalid request, or key: `fieldErrors["Idempotency-Key"]`).
 */
export function keyedImportVariables(req: RestRequest): Record<string, unknown> {
  const idempotencyKey = parseIdempotencyKey(req.headers[IDEMPOTENCY_HEADER], "Idempotency-Key");
  return { ...importVariables(req.body), idempotencyKey };
}

/**
 * Variables of the procedure `siteImport.import`: the input is the import request, optionally with an
 * `idempotencyKey` property (else the `Idempotency-Key` header; both given must agree).
 * @throws BadUserInputError (invalid request or key, or two different keys).
 */
export function procedureImportVariables(input: unknown, req: RestRequest): Record<string, unknown> {
  if (!input || typeof input !== "object" || Array.isArray(input) || !("idempotencyKey" in input)) {
    return keyedImportVariables({ ...req, body: input });
  }
  const { idempotencyKey: raw, ...request } = input as Record<string, unknown>;
  const fromBody = parseIdempotencyKey(raw);
  const fromHeader = parseIdempotencyKey(req.headers[IDEMPOTENCY_HEADER], "Idempotency-Key");
  if (fromBody && fromHeader && fromBody !== fromHeader) {
    throw new BadUserInputError("Two different idempotency keys", {
      fieldErrors: { idempotencyKey: ["Differs from the Idempotency-Key header; send one key"] },
    });
  }
  return { ...importVariables(request), idempotencyKey: fromBody ?? fromHeader };
}

/** Variables of the procedure `list` from the object `{ limit?, offset? }` (integers). @throws BadUserInputError. */
export function listVariables(input: unknown): Record<string, unknown> {
  return parseInput(listArgsSchema, input, "Invalid input");
}

/** Variables of `get`/`retry` from `{ siteImportId }`. @throws BadUserInputError. */
export function idVariables(input: unknown): Record<string, unknown> {
  return { id: parseInput(siteImportIdSchema, input, "Invalid input").siteImportId };
}

/** Variables of `delete` from `{ siteImportId, rollbackResources? }`. @throws BadUserInputError. */
export function deleteVariables(input: unknown): Record<string, unknown> {
  const args = parseInput(deleteArgsSchema, input, "Invalid input");
  return { id: args.siteImportId, rollbackResources: args.rollbackResources };
}

/** Variables of GET /api/site-import from `?limit=&offset=` (src/shared/query-params.ts). @throws BadUserInputError. */
export function listQueryVariables(req: RestRequest): Record<string, unknown> {
  const query = parseQuery(listQuerySchema, req);
  if (!query.success) throw toBadUserInput(query.error, "Invalid list arguments");
  return listQueryDefaults(query.data);
}

/**
 * A procedure's input: the JSON body of a POST, or the JSON of the `input` query parameter of a GET
 * (absent: `{}`).
 * @throws BadUserInputError when `input` is not valid JSON.
 */
export function procedureInput(req: RestRequest, method: "GET" | "POST"): unknown {
  if (method === "POST") return req.body ?? {};
  const raw = queryParam(req, "input");
  if (raw === undefined || raw === "") return {};
  try {
    return JSON.parse(raw);
  } catch {
    throw new BadUserInputError("The input query parameter must be JSON", {
      fieldErrors: { input: ["Must be URL-encoded JSON, e.g. input=%7B%22limit%22%3A10%7D"] },
    });
  }
}
