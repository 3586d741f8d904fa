/**
 * REST rows of the organization bundle (docs/organization-transfer.md):
 * - `GET /api/organizations/:id/export` (`organizationExport`) answers the bundle as a JSON attachment. The key: query
 *   parameter `recipient` (an age X25519 recipient, public) or header `x-skiff-export-passphrase` (kept out of URLs
 *   and access logs); neither: secrets left out.
 * - `POST /api/organizations/:id/import-plan` (`organizationImportPlan`), body `{ bundle, identity?, passphrase? }`,
 *   answers the plan of importing the bundle into the organization, changing nothing.
 * - `POST /api/organizations/:id/import` (`importOrganization`), body `{ bundle, identity?, passphrase?, deploy? }`,
 *   applies it: 200 with what was created, 409 (`CONFLICT`, each conflict named) when the plan has conflicts.
 * Errors: `{ error, code }` (400 adds `fieldErrors`) with 400, 401, 403 (an admin or member), 404 (an organization
 * the caller does not belong to). Not in the spec's published list (hidden with SKIFF_PUBLIC_API_ONLY=true).
 */
import { z } from "zod";
import { BadUserInputError } from "../../shared/errors.ts";
import { queryParam, type RestError, type RestResponse, type RestRoute } from "../../shared/rest-route.ts";
import { parseInput } from "../../shared/validate.ts";

/** The operations the rows execute. */
const EXPORT_OPERATION = `query OrganizationExport($organizationId: ID!, $recipient: String, $passphrase: String) {
  organizationExport(organizationId: $organizationId, recipient: $recipient, passphrase: $passphrase) }`;
const PLAN_OPERATION = `query OrganizationImportPlan($organizationId: ID!, $bundle: JSONObject!, $identity: String, $passphrase: String) {
  organizationImportPlan(organizationId: $organizationId, bundle: $bundle, identity: $identity, passphrase: $passphrase) {
    creates exists conflicts secrets secretsReadable warnings items { kind name action reason } } }`;

const IMPORT_OPERATION = `mutation ImportOrganization($organizationId: ID!, $bundle: JSONObject!, $identity: String, $passphrase: String, $deploy: Boolean) {
  importOrganization(organizationId: $organizationId, bundle: $bundle, identity: $identity, passphrase: $passphrase, deploy: $deploy) {
    exists deployments warnings created { kind name action reason } } }`;

/**
 * Largest body of `import-plan` and `import`, in bytes (64 MiB): a bundle holds every variable of every application
 * (up to 200 values of 32 KiB each), so an organization's export outgrows the 1 MiB every other route takes.
 */
const MAX_BUNDLE_BODY_BYTES = 64 * 1024 * 1024;

/** The body of `POST /api/organizations/:id/import`. */
const ImportBody = z.strictObject({
  bundle: z.record(z.string(), z.unknown(), "Required: the organization bundle (a JSON object)"),
  identity: z.string().nullish(),
  passphrase: z.string().nullish(),
  deploy: z.boolean().nullish(),
});

/** The body of `POST /api/organizations/:id/import-plan`. */
const PlanBody = z.strictObject({
  bundle: z.record(z.string(), z.unknown(), "Required: the organization bundle (a JSON object)"),
  identity: z.string().nullish(),
  passphrase: z.string().nullish(),
});

/** `{ error, code }` (400: with `fieldErrors`) at the mapped status; a 500 says nothing more (a 503 says the database is unreachable). */
function exportError(error: RestError, status: number): RestResponse {
  const ext = error.extensions ?? {};
  const code = String(ext.code ?? "INTERNAL_SERVER_ERROR");
  if (status === 500) return { status, body: { error: "Internal server error", code, errorId: ext.errorId } };
  if (status === 400) return { status, body: { error: error.message, code, fieldErrors: ext.fieldErrors ?? {} } };
  return { status, body: { error: error.message, code } };
}

/** `GET /api/organizations/:id/export`, `POST …/import-plan`, `POST …/import`. */
export const transferRoutes: readonly RestRoute[] = [
  {
    method: "GET",
    path: "/api/organizations/:id/export",
    surface: "rest",
    organization: "named",
    published: false,
    operation: EXPORT_OPERATION,
    variables: (req) => ({
      organizationId: req.params.id,
      recipient: queryParam(req, "recipient") || null,
      passphrase: req.headers["x-skiff-export-passphrase"] || null,
    }),
    respond: (data) => {
      const bundle = data.organizationExport as { organization: { slug: string | null; id: string } };
      const name = (bundle.organization.slug ?? bundle.organization.id).replace(/[^A-Za-z0-9._-]/g, "_");
      return {
        status: 200,
        body: bundle,
        headers: {
          "cache-control": "no-store",
          "content-disposition": `attachment; filename="${name}.skiff-bundle.json"`,
        },
      };
    },
    error: exportError,
  },
  {
    method: "POST",
    path: "/api/organizations/:id/import-plan",
    surface: "rest",
    organization: "named",
    published: false,
    bodyLimit: MAX_BUNDLE_BODY_BYTES,
    operation: PLAN_OPERATION,
    variables: (req) => {
      if (req.body === undefined) throw new BadUserInputError("A JSON body { bundle } is required");
      const body = parseInput(PlanBody, req.body, "Invalid import plan request");
      return {
        organizationId: req.params.id,
        bundle: body.bundle,
        identity: body.identity,
        passphrase: body.passphrase,
      };
    },
    bodyAt: ["organizationImportPlan"],
    error: exportError,
  },
  {
    method: "POST",
    path: "/api/organizations/:id/import",
    surface: "rest",
    organization: "named",
    published: false,
    bodyLimit: MAX_BUNDLE_BODY_BYTES,
    operation: IMPORT_OPERATION,
    variables: (req) => {
      if (req.body === undefined) throw new BadUserInputError("A JSON body { bundle } is required");
      const body = parseInput(ImportBody, req.body, "Invalid import request");
      return {
        organizationId: req.params.id,
        bundle: body.bundle,
        identity: body.identity,
        passphrase: body.passphrase,
        deploy: body.deploy ?? false,
      };
    },
    bodyAt: ["importOrganization"],
    error: exportError,
  },
];
