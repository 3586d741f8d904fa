/**
 * The organization export's read of the docs theme and docs hostname (docs/organization-transfer.md, spec
 * "Docs-domain lookup and theme"). The hostname's registration state (DNS, sync) stays with the instance.
 */
import type { ServiceContext } from "../context.ts";

/** The docs theme as the organization bundle carries it. */
export interface ExportedDocsTheme {
  siteName: string;
  logoUrl: string;
  faviconUrl: string | null;
  colorsLight: Record<string, unknown>;
  colorsDark: Record<string, unknown>;
  footerText: string;
  customCss: string | null;
  /** The docs hostname; null when none is set. */
  hostname: string | null;
}

/** The docs theme of `organizationId`, or null without one. The caller checks access (owners only). */
export async function exportDocsTheme(ctx: ServiceContext, organizationId: string): Promise<ExportedDocsTheme | null> {
  const row = await ctx
    .knex("docs_themes")
    .where({ organization_id: organizationId })
    .first(
      "site_name",
      "logo_url",
      "favicon_url",
      "colors_light",
      "colors_dark",
      "footer_text",
      "custom_css",
      "docs_hostname",
    );
  if (!row) return null;
  return {
    siteName: row.siteName,
    logoUrl: row.logoUrl,
    faviconUrl: row.faviconUrl ?? null,
    colorsLight: row.colorsLight,
    colorsDark: row.colorsDark,
    footerText: row.footerText,
    customCss: row.customCss ?? null,
    hostname: row.docsHostname ?? null,
  };
}

/** The organization whose docs theme holds `hostname` (unique platform-wide), or null when none does. */
export async function docsHostnameOwner(ctx: ServiceContext, hostname: string): Promise<string | null> {
  const row = await ctx.knex("docs_themes").where({ docs_hostname: hostname.toLowerCase() }).first("organization_id");
  return row?.organizationId ?? null;
}
