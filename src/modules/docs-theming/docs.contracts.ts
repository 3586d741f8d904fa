/**
 * Contracts of the docs-theming REST rows (spec "Docs-domain lookup and theme"): request and response
 * schemas (zod 4) for the OpenAPI document at /api/openapi.json, and the request schemas the rows validate with.
 * Errors of these rows are `{ error }` (400 may add `fieldErrors`), a 500 says nothing more.
 */
import { z } from "zod";
import type { ResponseDoc, RouteDoc } from "../../shared/openapi/route-doc.ts";

/** `{ error }`, with `fieldErrors` (field → messages) on some 400s. */
const DocsErrorBody = z
  .looseObject({ error: z.string(), fieldErrors: z.record(z.string(), z.array(z.string())).optional() })
  .meta({ id: "DocsError", description: "What went wrong (`fieldErrors`: messages by field, on some 400s)." });

/** The public theme document (`ThemeDocument` of docs-theme.css.ts). */
const ThemeBody = z
  .looseObject({
    siteName: z.string(),
    logoUrl: z.string(),
    faviconUrl: z.string().nullable(),
    colorsLight: z
      .record(z.string(), z.string())
      .meta({ description: "Entry name → HSL triple (`222 47% 11%`); `primary` always present." }),
    colorsDark: z.record(z.string(), z.string()).meta({ description: "Same entries, dark mode." }),
    footerText: z.string(),
    customCss: z.string().nullable(),
    updatedAt: z.iso.datetime().meta({ description: "Last change, ISO 8601 UTC." }),
  })
  .meta({ id: "DocsTheme", description: "An organization's docs theme, as docs sites apply it." });

/** Query of the theme rows. */
export const ThemeQuery = z.object({
  format: z.enum(["json", "css"]).optional().meta({
    description: "`json`: the theme document; `css`: CSS variables (`:root`, `.dark`) + custom CSS.",
    default: "json",
  }),
});

/** Query of `GET /api/docs/lookup`. */
export const LookupQuery = z.object({
  hostname: z
    .string()
    .meta({ description: "The docs site's hostname, e.g. `docs.acme.com` (any case; a trailing dot is ignored)." }),
});

/** Body of `POST /api/docs/sync`: the complete list of an instance's docs hostnames (replaces the previous one). */
export const SyncBody = z.looseObject({
  registrations: z.array(
    z.looseObject({
      hostname: z.string().meta({ description: "Docs hostname, lower case." }),
      cloudUrl: z.string().meta({ description: "The owning organization's URL, `{base_url}/o/<databaseId>`." }),
    }),
  ),
});

const cacheHeaders = {
  "Cache-Control": "`public, max-age=60, s-maxage=60` (errors: `no-store`).",
  "Access-Control-Allow-Origin": "`*`.",
};
const error = (description: string): ResponseDoc => ({ description, schema: DocsErrorBody });
const internal = error('Internal error (`{ error: "Internal server error" }`, no detail).');

/** The theme rows' contract: `/o/{databaseId}/api/theme` (`withId`) or `/api/theme` (single-organization). */
export function themeDoc(withId: boolean): RouteDoc {
  return {
    operationId: withId ? "getOrganizationDocsTheme" : "getDocsTheme",
    summary: withId ? "An organization's docs theme" : "The docs theme of a single-organization instance",
    description:
      "Public and cacheable (60 s). The strong `ETag` of the body answers a matching `If-None-Match` with 304." +
      (withId ? "" : " Only on an instance with exactly one organization; otherwise 404."),
    tag: "docs-theming",
    security: "none",
    ...(withId && {
      params: z.object({
        databaseId: z.string().meta({ description: "The organization's `databaseId` (a positive integer)." }),
      }),
    }),
    query: ThemeQuery,
    headers: z.object({
      "if-none-match": z.string().optional().meta({ description: "An `ETag` received before." }),
    }),
    responses: {
      "200": {
        description: "The theme: JSON (`format=json`) or CSS (`format=css`).",
        schema: ThemeBody,
        mediaTypes: ["text/css"],
        headers: { ETag: "Strong entity tag of this body.", ...cacheHeaders },
      },
      "304": { description: "Not modified (`If-None-Match` matched).", headers: { ETag: "The same entity tag." } },
      "400": error("`format` is neither `json` nor `css`."),
      "404": error("No such organization, or no theme configured."),
      "500": internal,
    },
  };
}

/** `GET /api/docs/lookup` (docs-host role). */
export const lookupDoc: RouteDoc = {
  operationId: "lookupDocsHostname",
  summary: "Which organization's theme a docs hostname uses (docs-host role)",
  description: "Public and cacheable (60 s); the loader script calls it from the docs site's own hostname.",
  tag: "docs-theming",
  security: "none",
  query: LookupQuery,
  responses: {
    "200": {
      description: "The hostname's organization URL; its theme is at `{cloudUrl}/api/theme`.",
      schema: z.looseObject({ cloudUrl: z.string() }).meta({ id: "DocsLookup", description: "Where the theme is." }),
      headers: cacheHeaders,
    },
    "400": error("`hostname` missing or not a valid hostname."),
    "404": error("The hostname is not registered (yet)."),
    "500": internal,
  },
};

/** `POST /api/docs/sync` (docs-host role; license key as bearer). */
export const syncDoc: RouteDoc = {
  operationId: "syncDocsHostnames",
  summary: "Report an instance's complete list of docs hostnames (docs-host role)",
  description:
    "Sent by the `docs.sync` job of each instance with its license key. Hostnames registered by another license " +
    "are refused (`accepted: false`, `conflict: true`); hostnames of this license left out of the list are removed.",
  tag: "docs-theming",
  security: "license",
  body: SyncBody,
  responses: {
    "200": {
      description: "The verdict per reported hostname.",
      schema: z
        .looseObject({
          results: z.array(
            z.looseObject({
              hostname: z.string(),
              accepted: z.boolean(),
              conflict: z.boolean(),
              dns: z.enum(["PENDING", "OK", "WRONG_TARGET"]).meta({ description: "CNAME state of the hostname." }),
            }),
          ),
        })
        .meta({ id: "DocsSyncResults", description: "One result per reported hostname." }),
    },
    "400": error("Not `{ registrations: [...] }`, or an invalid or duplicated entry (`fieldErrors`)."),
    "401": error("No license key, or one the docs host does not know."),
    "500": internal,
  },
};

/** `GET /docs-theme.js`. */
export const loaderDoc: RouteDoc = {
  operationId: "getDocsThemeLoader",
  summary: "The script docs sites include to apply their organization's theme",
  description:
    "A docs site includes it as a script element with `src` `{docs_host}/docs-theme.js` and the attribute " +
    "`data-docs-host` = `{docs_host}`. Cacheable 5 minutes.",
  tag: "docs-theming",
  security: "none",
  responses: {
    "200": {
      description: "The loader (JavaScript).",
      mediaTypes: ["text/javascript"],
      headers: { "Cache-Control": "`public, max-age=300`.", "Access-Control-Allow-Origin": "`*`." },
    },
  },
};
