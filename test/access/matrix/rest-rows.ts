/**
 * The REST table of the isolation matrix: one row per route of the REST table (src/modules/index.ts) (`METHOD path`), with the
 * expected HTTP status for each persona (columns as in graphql-rows.ts). `target` is the id that must answer
 * exactly like a nonexistent one (same status, same body) where the expectation is 404.
 */

import { deployRestRows } from "./deploy-rows.ts";
import { docsRestRows } from "./docs-rows.ts";
import type { Fixture, Persona } from "./fixture.ts";
import { EMPTY_BUNDLE } from "./graphql-rows.ts";
import { manageRestRows } from "./manage-rows.ts";
import { webhookRestRows } from "./webhook-rows.ts";

/** Expected status per persona. */
export type StatusExpectation = Record<Persona, number>;

/** The request of one cell. */
export interface RestCall {
  /** Path with parameters and query filled in, e.g. `/api/site-import/imp_...`. */
  url: string;
  body?: unknown;
  /** The id inside `url`/`body` whose nonexistent twin must answer identically when 404 is expected. */
  target?: string;
}

/** One row: a route, how to call it, and what each persona gets. */
export interface RestRow {
  /** `GET /api/site-import/:id`, exactly as registered. */
  route: string;
  call: (fx: Fixture, persona: Persona) => Promise<RestCall> | RestCall;
  expect: StatusExpectation;
}

/** An expectation in column order: owner, admin, granted, notGranted, otherOwner, revokedKey, anonymous, agentToken. */
function statuses(...s: [number, number, number, number, number, number, number, number]): StatusExpectation {
  const [owner, admin, granted, notGranted, otherOwner, revokedKey, anonymous, agentToken] = s;
  return { owner, admin, granted, notGranted, otherOwner, revokedKey, anonymous, agentToken };
}

const q = (input: unknown) => `input=${encodeURIComponent(JSON.stringify(input))}`;

/** Every row; the test fails for a route without a row and for a row without a route. */
export const restRows: RestRow[] = [
  // ---- Agent API: agent tokens only (the agent persona is a member limited to project Q) ----------------------
  {
    route: "GET /api/agent/projects",
    call: () => ({ url: "/api/agent/projects" }),
    expect: statuses(401, 401, 401, 401, 401, 401, 401, 200),
  },
  {
    route: "GET /api/agent/application",
    call: (fx) => ({ url: `/api/agent/application?applicationId=${fx.applicationP}`, target: fx.applicationP }),
    expect: statuses(401, 401, 401, 401, 401, 401, 401, 404),
  },
  {
    route: "GET /api/agent/deployments",
    call: (fx) => ({ url: `/api/agent/deployments?applicationId=${fx.applicationP}`, target: fx.applicationP }),
    expect: statuses(401, 401, 401, 401, 401, 401, 401, 404),
  },
  {
    route: "GET /api/agent/whoami",
    call: () => ({ url: "/api/agent/whoami" }),
    expect: statuses(401, 401, 401, 401, 401, 401, 401, 200),
  },
  // Who am I for sessions and account API keys: every valid key answers (its own credential), agent tokens do not.
  {
    route: "GET /api/whoami",
    call: () => ({ url: "/api/whoami" }),
    expect: statuses(200, 200, 200, 200, 200, 401, 401, 401),
  },
  {
    route: "GET /api/agent/openapi.json",
    call: () => ({ url: "/api/agent/openapi.json" }),
    expect: statuses(200, 200, 200, 200, 200, 200, 200, 200),
  },
  // ---- Published REST document: no credentials ----------------------------------------------------
  {
    route: "GET /api/openapi.json",
    call: () => ({ url: "/api/openapi.json" }),
    expect: statuses(200, 200, 200, 200, 200, 200, 200, 200),
  },
  {
    route: "GET /api/site-import/openapi.json",
    call: () => ({ url: "/api/site-import/openapi.json" }),
    expect: statuses(200, 200, 200, 200, 200, 200, 200, 200),
  },
  // ---- Site import API (documented) -------------------------------------------------------------------------
  {
    route: "POST /api/site-import",
    call: (fx) => {
      const body = fx.importRequest();
      return { url: "/api/site-import", body, target: fx.orgA };
    },
    expect: statuses(200, 200, 403, 403, 404, 401, 401, 401),
  },
  {
    route: "POST /api/site-import/preview",
    call: (fx) => ({ url: "/api/site-import/preview", body: fx.importRequest(), target: fx.orgA }),
    expect: statuses(200, 200, 403, 403, 404, 401, 401, 401),
  },
  {
    route: "GET /api/site-import",
    call: () => ({ url: "/api/site-import?limit=100" }),
    expect: statuses(200, 200, 200, 200, 200, 401, 401, 401),
  },
  {
    route: "GET /api/site-import/:id",
    call: (fx) => ({ url: `/api/site-import/${fx.importP}`, target: fx.importP }),
    expect: statuses(200, 200, 200, 404, 404, 401, 401, 401),
  },
  // ---- Site import procedures (unpublished) -----------------------------------------------------------------
  {
    route: "POST /api/siteImport.import",
    call: (fx) => ({ url: "/api/siteImport.import", body: fx.importRequest(), target: fx.orgA }),
    expect: statuses(200, 200, 403, 403, 404, 401, 401, 401),
  },
  {
    route: "GET /api/siteImport.preview",
    call: (fx) => ({ url: `/api/siteImport.preview?${q(fx.importRequest())}`, target: fx.orgA }),
    expect: statuses(200, 200, 403, 403, 404, 401, 401, 401),
  },
  {
    route: "POST /api/siteImport.preview",
    call: (fx) => ({ url: "/api/siteImport.preview", body: fx.importRequest(), target: fx.orgA }),
    expect: statuses(200, 200, 403, 403, 404, 401, 401, 401),
  },
  {
    route: "GET /api/siteImport.list",
    call: () => ({ url: `/api/siteImport.list?${q({ limit: 100 })}` }),
    expect: statuses(200, 200, 200, 200, 200, 401, 401, 401),
  },
  {
    route: "POST /api/siteImport.list",
    call: () => ({ url: "/api/siteImport.list", body: { limit: 100 } }),
    expect: statuses(200, 200, 200, 200, 200, 401, 401, 401),
  },
  {
    route: "GET /api/siteImport.get",
    call: (fx) => ({ url: `/api/siteImport.get?${q({ siteImportId: fx.importP })}`, target: fx.importP }),
    expect: statuses(200, 200, 200, 404, 404, 401, 401, 401),
  },
  {
    route: "POST /api/siteImport.get",
    call: (fx) => ({ url: "/api/siteImport.get", body: { siteImportId: fx.importP }, target: fx.importP }),
    expect: statuses(200, 200, 200, 404, 404, 401, 401, 401),
  },
  {
    // A successful import cannot be retried: 409 for those who see it and may import.
    route: "POST /api/siteImport.retry",
    call: (fx) => ({ url: "/api/siteImport.retry", body: { siteImportId: fx.importP }, target: fx.importP }),
    expect: statuses(409, 409, 403, 404, 404, 401, 401, 401),
  },
  {
    route: "POST /api/siteImport.delete",
    call: async (fx) => {
      const id = await fx.newImport();
      return { url: "/api/siteImport.delete", body: { siteImportId: id }, target: id };
    },
    expect: statuses(200, 200, 403, 404, 404, 401, 401, 401),
  },
  ...manageRestRows,
  // Changing a project (src/modules/projects/project.rest.ts): as the management procedures, and as deleteProject
  // answers a member (the project is granted to `granted`: 403; `notGranted` does not see it: 404).
  {
    route: "POST /api/project.create",
    call: (fx) => ({
      url: "/api/project.create",
      body: { organizationId: fx.orgA, name: `matrix-${fx.unique()}` },
      target: fx.orgA,
    }),
    expect: statuses(200, 200, 403, 403, 404, 401, 401, 401),
  },
  {
    route: "POST /api/project.delete",
    call: async (fx) => {
      const id = await fx.newProject();
      return { url: "/api/project.delete", body: { projectId: id }, target: id };
    },
    expect: statuses(200, 200, 403, 404, 404, 401, 401, 401),
  },
  {
    route: "POST /api/project.update",
    call: async (fx) => {
      const id = await fx.newProject();
      return { url: "/api/project.update", body: { projectId: id, name: `matrix-${fx.unique()}` }, target: id };
    },
    expect: statuses(200, 200, 403, 404, 404, 401, 401, 401),
  },
  ...webhookRestRows,
  // ---- The audit log: owners and admins; members 403 (the organization is visible to them) -------------------
  ...["/api/audit-events", "/api/audit-events/export"].map(
    (path): RestRow => ({
      route: `GET ${path}`,
      call: (fx) => ({ url: `${path}?organization_id=${fx.orgA}`, target: fx.orgA }),
      expect: statuses(200, 200, 403, 403, 404, 401, 401, 401),
    }),
  ),
  // ---- The organization bundle: owners only; admins and members 403 (the organization is visible to them) ------
  {
    route: "GET /api/organizations/:id/export",
    call: (fx) => ({ url: `/api/organizations/${fx.orgA}/export`, target: fx.orgA }),
    expect: statuses(200, 403, 403, 403, 404, 401, 401, 401),
  },
  {
    route: "POST /api/organizations/:id/import-plan",
    call: (fx) => ({
      url: `/api/organizations/${fx.orgA}/import-plan`,
      body: { bundle: EMPTY_BUNDLE },
      target: fx.orgA,
    }),
    expect: statuses(200, 403, 403, 403, 404, 401, 401, 401),
  },
  {
    route: "POST /api/organizations/:id/import",
    call: (fx) => ({
      url: `/api/organizations/${fx.orgA}/import`,
      body: { bundle: EMPTY_BUNDLE },
      target: fx.orgA,
    }),
    expect: statuses(200, 403, 403, 403, 404, 401, 401, 401),
  },
  // ---- Payment gateway events: an inbound callback (its own signature check, no session or API key) -----------
  {
    route: "POST /api/payment-gateway/events",
    call: () => ({ url: "/api/payment-gateway/events", body: { merchantCode: "LEAKA-unknown", type: "x" } }),
    expect: statuses(401, 401, 401, 401, 401, 401, 401, 401),
  },
  ...docsRestRows,
  ...deployRestRows,
];
