/**
 * REST rows of docs-domain theming (spec "Docs-domain lookup and theme"; no credentials): the theme endpoint
 * (`/o/:databaseId/api/theme`, and `/api/theme` on a single-organization instance), the docs-host role's
 * `/api/docs/lookup` and `/api/docs/sync` (license key as `Authorization: Bearer`), and the `/docs-theme.js`
 * loader. Theme and lookup answers are cacheable for 60 s and carry `Access-Control-Allow-Origin: *`; the theme's
 * strong ETag answers `If-None-Match` with 304. Errors: 400/401 `{ error }`, 404 `{ error }`, 500
 * `{ error: "Internal server error" }` (no detail), 503 `{ error }` with `Retry-After` while the database is unreachable.
 */
import { BadUserInputError, NotFoundError, UnauthenticatedError } from "../../shared/errors.ts";
import {
  queryParam,
  type RestError,
  type RestRequest,
  type RestResponse,
  type RestRoute,
  type StaticRestRoute,
} from "../../shared/rest-route.ts";
import { LookupQuery, loaderDoc, lookupDoc, SyncBody, syncDoc, ThemeQuery, themeDoc } from "./docs.contracts.ts";
import { authenticateLicense } from "./docs-host.service.ts";
import { etagMatches, strongEtag, type ThemeDocument, themeCss } from "./docs-theme.css.ts";
import { DOCS_THEME_LOADER } from "./docs-theme.loader.ts";

/** The operations the rows execute. */
export const DOCS_OPERATIONS = {
  theme: `query PublicDocsTheme($databaseId: Int) { publicDocsTheme(databaseId: $databaseId) {
    siteName logoUrl faviconUrl colorsLight colorsDark footerText customCss updatedAt } }`,
  lookup: `query DocsHostLookup($hostname: String!) { docsHostLookup(hostname: $hostname) }`,
  sync: `mutation SyncDocsRegistrations($licenseKey: String!, $registrations: [DocsHostnameInput!]!) {
    syncDocsRegistrations(licenseKey: $licenseKey, registrations: $registrations) { hostname accepted conflict dns } }`,
} as const;

/** Cache policy of theme documents and lookups (spec: 60 s at the CDN). */
export const PUBLIC_CACHE = "public, max-age=60, s-maxage=60";
const CORS = { "access-control-allow-origin": "*" };
const NO_STORE = { ...CORS, "cache-control": "no-store" };

/**
 * `{ error }` bodies; a 500 says nothing more (spec: theme endpoint server failure → 500). A database outage is 503
 * (the runner adds `Retry-After`), so a CDN or docs host retries instead of taking it as a failure.
 */
function publicError(error: RestError, status: number): RestResponse {
  if (status === 503) return { status, body: { error: error.message }, headers: NO_STORE };
  if (status >= 500) return { status: 500, body: { error: "Internal server error" }, headers: NO_STORE };
  return { status, body: { error: error.message }, headers: NO_STORE };
}

/** `format` of a theme request: `json` (default) or `css`. @throws BadUserInputError for anything else. */
function themeFormat(req: RestRequest): "json" | "css" {
  const parsed = ThemeQuery.safeParse({ format: queryParam(req, "format") });
  if (!parsed.success) throw new BadUserInputError("format must be json or css");
  return parsed.data.format ?? "json";
}

/** Serves the theme document (JSON or CSS) with its ETag; 304 when `If-None-Match` matches; 404 without a theme. */
function respondTheme(data: Record<string, unknown>, _v: Record<string, unknown>, req: RestRequest): RestResponse {
  const theme = data.publicDocsTheme as ThemeDocument | null;
  if (!theme) return { status: 404, body: { error: "No theme is configured" }, headers: NO_STORE };
  const css = themeFormat(req) === "css";
  const body = css ? themeCss(theme) : JSON.stringify(theme);
  const etag = strongEtag(body);
  const headers = { ...CORS, "cache-control": PUBLIC_CACHE, etag };
  if (etagMatches(req.headers["if-none-match"], etag)) return { status: 304, body: "", headers };
  const type = css ? "text/css; charset=utf-8" : "application/json; charset=utf-8";
  return { status: 200, body, headers: { ...headers, "content-type": type } };
}

/** A theme row: `databaseId` from the path (`/o/:databaseId/…`) or none (single-organization instance). */
function themeRow(path: string, withId: boolean): RestRoute {
  return {
    method: "GET",
    path,
    surface: "none",
    published: true,
    doc: themeDoc(withId),
    operation: DOCS_OPERATIONS.theme,
    variables: (req) => {
      themeFormat(req);
      if (!withId) return { databaseId: null };
      const id = req.params.databaseId ?? "";
      if (!/^[1-9][0-9]{0,9}$/.test(id) || Number(id) > 2_147_483_647) throw new NotFoundError("Organization", id);
      return { databaseId: Number(id) };
    },
    respond: respondTheme,
    error: publicError,
  };
}

/** The bearer token of `authorization`, or undefined. */
function bearer(req: RestRequest): string | undefined {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? "");
  return m?.[1];
}

/** The `/docs-theme.js` loader row (cacheable 5 minutes). */
const loaderRow: StaticRestRoute = {
  method: "GET",
  path: "/docs-theme.js",
  published: true,
  doc: loaderDoc,
  serve: () => ({
    status: 200,
    body: DOCS_THEME_LOADER,
    headers: {
      ...CORS,
      "content-type": "text/javascript; charset=utf-8",
      "cache-control": "public, max-age=300",
      "x-content-type-options": "nosniff",
    },
  }),
};

/** Every row of the docs module. */
export const docsRoutes = [
  themeRow("/o/:databaseId/api/theme", true),
  themeRow("/api/theme", false),
  {
    method: "GET",
    path: "/api/docs/lookup",
    surface: "none",
    published: true,
    doc: lookupDoc,
    operation: DOCS_OPERATIONS.lookup,
    variables: (req) => {
      const parsed = LookupQuery.safeParse({ hostname: queryParam(req, "hostname") });
      if (!parsed.success) {
        throw new BadUserInputError("hostname is required", { fieldErrors: { hostname: ["Required"] } });
      }
      return { hostname: parsed.data.hostname };
    },
    respond: (data) =>
      typeof data.docsHostLookup === "string"
        ? { status: 200, body: { cloudUrl: data.docsHostLookup }, headers: { ...CORS, "cache-control": PUBLIC_CACHE } }
        : { status: 404, body: { error: "This hostname is not registered (yet)" }, headers: NO_STORE },
    error: publicError,
  },
  {
    method: "POST",
    path: "/api/docs/sync",
    surface: "none",
    published: true,
    doc: syncDoc,
    operation: DOCS_OPERATIONS.sync,
    // The license key before the body: a wrong key is a 401 whatever the body holds (the operation checks it again).
    authenticate: (req, config) => {
      const licenseKey = bearer(req);
      if (!licenseKey) throw new UnauthenticatedError("Send the license key as Authorization: Bearer <key>");
      authenticateLicense(config, licenseKey);
    },
    variables: (req) => {
      const licenseKey = bearer(req);
      const parsed = SyncBody.safeParse(req.body);
      if (!parsed.success) {
        throw new BadUserInputError("Body must be { registrations: [{ hostname, cloudUrl }] }", {
          fieldErrors: { registrations: ["Required: an array of { hostname, cloudUrl } strings"] },
        });
      }
      // Only the two fields the service reads (the GraphQL input type has no others).
      const registrations = parsed.data.registrations.map(({ hostname, cloudUrl }) => ({ hostname, cloudUrl }));
      return { licenseKey, registrations };
    },
    respond: (data) => ({
      status: 200,
      body: { results: data.syncDocsRegistrations },
      headers: { "cache-control": "no-store" },
    }),
    error: (error, status) =>
      status === 503
        ? { status, body: { error: error.message } }
        : status >= 500
          ? { status: 500, body: { error: "Internal server error" } }
          : {
              status,
              body: {
                error: error.message,
                ...(error.extensions?.fieldErrors ? { fieldErrors: error.extensions.fieldErrors } : {}),
              },
            },
  },
  loaderRow,
] satisfies readonly (RestRoute | StaticRestRoute)[];
