/**
 * The theme document (spec "Docs-domain lookup and theme"): the JSON the theme endpoint serves, its CSS-variable
 * rendering (`?format=css`) and its strong ETag.
 */
import { createHash } from "node:crypto";
import type { DocsThemeRow } from "./docs-theme.model.ts";

/** The public theme document, as `GET {cloud_url}/api/theme` returns it: the row's theme fields. */
export type ThemeDocument = Pick<
  DocsThemeRow,
  "siteName" | "logoUrl" | "faviconUrl" | "colorsLight" | "colorsDark" | "footerText" | "customCss"
> & {
  /** ISO 8601 UTC. */
  updatedAt: string;
};

export { themeCss } from "./docs-theme.render.ts";

/** Strong ETag of a response body: `"<sha256 base64url, 32 chars>"`. */
export function strongEtag(body: string): string {
  return `"${createHash("sha256").update(body, "utf8").digest("base64url").slice(0, 32)}"`;
}

/**
 * True when `ifNoneMatch` (the request header) matches `etag` (weak comparison, as RFC 9110 §13.1.2 requires
 * for If-None-Match; `*` matches any).
 */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const strip = (t: string) => t.trim().replace(/^W\//, "");
  return ifNoneMatch.split(",").some((t) => t.trim() === "*" || strip(t) === strip(etag));
}
