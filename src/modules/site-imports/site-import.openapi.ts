/**
 * Contracts of the four documented site import paths (spec: Endpoints → Site import; Import result; Import
 * record; Errors) for the generated /api/openapi.json. Request schemas are the ones the rows validate with
 * (site-import.schema.ts); response schemas describe the bodies the rows shape (site-import.rest.ts).
 */
import { z } from "zod";
import { errorResponses } from "../../shared/openapi/error-bodies.ts";
import type { RouteDoc } from "../../shared/openapi/route-doc.ts";
import { listQuerySchema, siteImportRequestSchema } from "./site-import.schema.ts";

const id = z.string();
const dateTime = z.string().meta({ format: "date-time" });
const step = z.enum(["project_creation", "database_creation", "application_creation", "domain_creation", "deployment"]);
const databaseType = z.enum(["mariadb", "mysql", "postgres", "mongodb"]);

/** The import result; optional fields are left out when null. */
export const SiteImportResultBody = z
  .looseObject({
    importId: id,
    status: z.enum(["success", "partial", "failed"]),
    projectId: id.nullable(),
    applicationId: id.nullable(),
    databaseId: id.optional(),
    databaseType: databaseType.optional(),
    databaseServiceHost: z.string().optional(),
    domainId: id.optional(),
    errorMessage: z.string().optional(),
    errorStep: step.optional(),
  })
  .meta({ id: "SiteImportResult", description: "Outcome of one import run." });

/** The import record. */
export const SiteImportRecordBody = z
  .looseObject({
    id,
    organizationId: id,
    name: z.string(),
    status: z.enum(["pending", "success", "partial", "failed"]),
    inputConfig: z.record(z.string(), z.unknown()).meta({ description: "The validated request, password masked." }),
    projectId: id.nullable(),
    databaseId: id.nullable(),
    databaseType: databaseType.nullable(),
    databaseServiceHost: z.string().nullable(),
    applicationId: id.nullable(),
    domainId: id.nullable(),
    deploymentId: id.nullable(),
    errorStep: step.nullable(),
    errorMessage: z.string().nullable(),
    attempts: z.int().min(0),
    createdAt: dateTime,
    updatedAt: dateTime,
    finishedAt: dateTime.nullable(),
  })
  .meta({ id: "SiteImport", description: "An import record: stored input, status, created ids, last error." });

/** The preview of an import: what it would create, and what blocks it. */
export const SiteImportPreviewBody = z
  .looseObject({
    valid: z.boolean(),
    resources: z.looseObject({
      project: z.looseObject({ name: z.string() }),
      database: z.looseObject({ type: databaseType, name: z.string() }).nullable(),
      application: z.looseObject({ name: z.string(), sourceType: z.string(), buildType: z.string().nullable() }),
      domain: z.looseObject({ host: z.string() }).nullable(),
    }),
    warnings: z.array(z.string()),
    errors: z.array(z.string()),
    existingImport: z
      .looseObject({ id, status: z.enum(["pending", "success", "partial", "failed"]) })
      .optional()
      .meta({ description: "Only with an `Idempotency-Key` that already names an import of this body: that import." }),
  })
  .meta({ id: "SiteImportPreview" });

/** The optional `Idempotency-Key` request header (docs/site-imports.md, "Idempotent requests"). */
const idempotencyHeader = z.object({
  "idempotency-key": z
    .string()
    .min(1)
    .max(255)
    .regex(/^[\x21-\x7e]+$/)
    .optional()
    .meta({
      description:
        "Client-chosen key (1 to 255 visible ASCII characters, e.g. a UUID) making an import idempotent: the same key with the same body answers the same import; a preview with it names that import (`existingImport`).",
    }),
});

/** The import request body, as validated (input form). */
const SiteImportRequest = siteImportRequestSchema.meta({ id: "SiteImportRequest" });

const tag = "site-import";

/** Contracts of the documented rows, by key. */
export const siteImportDocs = {
  import: {
    operationId: "importSite",
    summary: "Import a site: create its project, database, application and domain, and queue a deployment",
    description:
      "With an `Idempotency-Key` header the request is safe to retry: the same key with the same body (per organization, for `SKIFF_IDEMPOTENCY_TTL_HOURS`, default 24 h) answers the same import with the same status — while it runs, the same pending answer — and starts nothing; the same key with a different body answers 422.",
    tag,
    headers: idempotencyHeader,
    body: SiteImportRequest,
    responses: {
      "200": { description: "The import succeeded.", schema: SiteImportResultBody },
      "202": {
        description:
          "The run did not end within the wait limit (`SKIFF_IMPORT_WAIT_MS`), or before the instance shut down: `status` is `pending` and the run goes on; follow it with `GET /api/site-import/{id}`.",
        schema: SiteImportResultBody,
      },
      "422": {
        description:
          "The import ended `partial` or `failed` (see `errorStep`); or, as `{ error }` naming the key, the `Idempotency-Key` was already used with a different body.",
        schema: z.union([SiteImportResultBody, z.looseObject({ error: z.string() })]),
      },
      ...errorResponses(400, 401, 403, 404, 409, 500),
    },
  },
  preview: {
    operationId: "previewSiteImport",
    summary: "Preview an import: what it would create and what would block it (nothing is written)",
    tag,
    headers: idempotencyHeader,
    body: SiteImportRequest,
    responses: {
      "200": { description: "The preview.", schema: SiteImportPreviewBody },
      "422": {
        description: "The `Idempotency-Key` was already used with a different body.",
        schema: z.looseObject({ error: z.string() }),
      },
      ...errorResponses(400, 401, 403, 404, 500),
    },
  },
  list: {
    operationId: "listSiteImports",
    summary: "Import records of the caller's organizations, newest first",
    tag,
    query: listQuerySchema,
    responses: {
      "200": { description: "One page of records.", schema: z.array(SiteImportRecordBody) },
      ...errorResponses(400, 401, 500),
    },
  },
  get: {
    operationId: "getSiteImport",
    summary: "One import record",
    tag,
    params: z.object({ id: z.string().meta({ description: "Import id (`imp_...`)." }) }),
    responses: {
      "200": { description: "The record.", schema: SiteImportRecordBody },
      ...errorResponses(401, 404, 500),
    },
  },
} satisfies Record<string, RouteDoc>;
