/** Row types of the docs module (migration 20261122003000_create_docs_themes). */

/** DNS state of a docs hostname (GraphQL `DocsDnsState`). */
export type DocsDnsState = "PENDING" | "OK" | "WRONG_TARGET";

/** A colour palette: entry name → space-separated HSL triple (`222 47% 11%`); `primary` always present. */
export type DocsColors = Record<string, string>;

/** One `docs_themes` row (camelCase), the organization's theme and its hostname's registration state. */
export interface DocsThemeRow {
  /** The organization's id, as the compiled reads key a theme (one per organization): `setDocsTheme`'s answer is re-read by it. */
  id: string;
  organizationId: string;
  siteName: string;
  logoUrl: string;
  faviconUrl: string | null;
  colorsLight: DocsColors;
  colorsDark: DocsColors;
  footerText: string;
  customCss: string | null;
  docsHostname: string | null;
  docsSyncedAt: Date | null;
  docsDns: DocsDnsState;
  docsConflict: boolean;
  createdAt: Date;
  updatedAt: Date;
  /** The organization's `database_id`, joined in by the service. */
  databaseId: number;
}

/** One `docs_host_registrations` row (docs-host role). */
export interface DocsHostRegistrationRow {
  hostname: string;
  licenseSha256: string;
  cloudUrl: string;
  dns: DocsDnsState;
  syncedAt: Date;
}

/** One hostname an instance reports (`POST /api/docs/sync` body entry). */
export interface DocsHostnameEntry {
  hostname: string;
  cloudUrl: string;
}

/** The docs host's verdict on one reported hostname. */
export interface DocsSyncResult {
  hostname: string;
  accepted: boolean;
  conflict: boolean;
  dns: DocsDnsState;
}
