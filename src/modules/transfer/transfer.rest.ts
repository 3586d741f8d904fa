/**
 * REST row of the organization export (docs/organization-transfer.md), executing `organizationExport`:
 * `GET /api/organizations/:id/export` answers the bundle as a JSON attachment. The key: query parameter `recipient`
 * (an age X25519 recipient, public) or header `x-skiff-export-passphrase` (kept out of URLs and access logs); neither:
 * secrets left out. Errors: `{ error, code }` (400 adds `fieldErrors`) with 400, 401, 403 (an admin or member), 404
 * (an organization the caller does not belong to). Not in the spec's published list (hidden with
 * SKIFF_PUBLIC_API_ONLY=true).
 */
import { queryParam, type RestError, type RestResponse, type RestRoute } from "../../shared/rest-route.ts";

/** The operation the row executes. */
const EXPORT_OPERATION = `query OrganizationExport($organizationId: ID!, $recipient: String, $passphrase: String) {
  organizationExport(organizationId: $organizationId, recipient: $recipient, passphrase: $passphrase) }`;

/** `{ error, code }` (400: with `fieldErrors`) at the mapped status; a 500 says nothing more. */
function exportError(error: RestError, status: number): RestResponse {
  const ext = error.extensions ?? {};
  const code = String(ext.code ?? "INTERNAL_SERVER_ERROR");
  if (status >= 500) return { status, body: { error: "Internal server error", code, errorId: ext.errorId } };
  if (status === 400) return { status, body: { error: error.message, code, fieldErrors: ext.fieldErrors ?? {} } };
  return { status, body: { error: error.message, code } };
}

/** `GET /api/organizations/:id/export`. */
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
];
