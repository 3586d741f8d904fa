/** The GraphQL documents of Settings → Docs theme (schema/docs-theming.graphql), typed by the codegen client preset. */
import { graphql } from "../../gql/index.ts";

export type { DocsThemeFieldsFragment as DocsThemeFields } from "../../gql/graphql.ts";

export const DOCS_THEME_FIELDS = graphql(`
  fragment DocsThemeFields on DocsTheme {
    siteName logoUrl faviconUrl colorsLight colorsDark footerText customCss docsHostname themeUrl loaderSnippet
    updatedAt
    docsRegistration { hostname syncedAt dns cnameTarget conflict }
  }
`);

/** The organization's theme (null when none is saved). */
export const DOCS_THEME = graphql(`
  query DocsTheme($organizationId: ID!) {
    docsTheme(organizationId: $organizationId) { ...DocsThemeFields }
  }
`);

export const SET_DOCS_THEME = graphql(`
  mutation SetDocsTheme($organizationId: ID!, $input: DocsThemeInput!) {
    setDocsTheme(organizationId: $organizationId, input: $input) { ...DocsThemeFields }
  }
`);
