/** Helpers of the docs-theming tests: a valid theme input, the GraphQL documents, an organization's integer id. */
import type { Knex } from "knex";

/** A valid `DocsThemeInput`. */
export const THEME = {
  siteName: "Acme Docs",
  logoUrl: "https://cdn.acme.test/logo.svg",
  faviconUrl: "https://cdn.acme.test/favicon.ico",
  colorsLight: { primary: "222 47% 11%", primaryForeground: "210 40% 98%", accent: "210 40% 96.1%" },
  colorsDark: { primary: "210 40% 98%", primaryForeground: "222.2 47.4% 11.2%" },
  footerText: "© Acme",
  customCss: ".navbar { letter-spacing: 0.01em; }",
  docsHostname: null as string | null,
};

/** `setDocsTheme` selecting every field. */
export const SET_THEME = `mutation Set($org: ID!, $input: DocsThemeInput!) {
  setDocsTheme(organizationId: $org, input: $input) {
    siteName logoUrl faviconUrl colorsLight colorsDark footerText customCss docsHostname themeUrl loaderSnippet updatedAt
    docsRegistration { hostname syncedAt dns cnameTarget conflict }
  }
}`;

/** `docsTheme` selecting the registration. */
export const GET_THEME = `query Get($org: ID!) {
  docsTheme(organizationId: $org) { siteName docsHostname docsRegistration { hostname syncedAt dns cnameTarget conflict } }
}`;

/** The integer id (`database_id`) of organization `organizationId`. */
export async function orgNumber(knex: Knex, organizationId: string): Promise<number> {
  return (await knex("organizations").where({ id: organizationId }).first("database_id")).databaseId;
}
