/**
 * Isolation-matrix rows of the docs module (schema/docs-theming.graphql and the docs REST rows): owners and admins of
 * organization A manage A's theme, members of A and owners of B get NOT_FOUND for the organization, invalid
 * credentials 401. The public fields and routes (theme document, lookup, loader) answer everyone alike and ignore
 * the credentials of the REST rows; GraphQL still refuses a credential that does not verify. The synchronisation
 * is authenticated by a license key only: no persona holds one, so every cell is 401/UNAUTHENTICATED.
 */
import type { Fixture } from "./fixture.ts";
import type { GraphqlRow, Outcome } from "./graphql-rows.ts";
import type { RestRow } from "./rest-rows.ts";

const U = "UNAUTHENTICATED" as const;
const NF = "NOT_FOUND" as const;

const THEME = {
  siteName: "Matrix docs",
  logoUrl: "https://cdn.matrix.test/logo.svg",
  colorsLight: { primary: "222 47% 11%" },
  colorsDark: { primary: "210 40% 98%" },
};

const gate = (ok: Outcome = "ok"): GraphqlRow["expect"] => ({
  owner: ok,
  admin: ok,
  granted: NF,
  notGranted: NF,
  otherOwner: NF,
  revokedKey: U,
  anonymous: U,
  agentToken: U,
});
/** Public GraphQL fields: anyone, but a credential that does not verify is refused. */
const open: GraphqlRow["expect"] = {
  owner: "ok",
  admin: "ok",
  granted: "ok",
  notGranted: "ok",
  otherOwner: "ok",
  revokedKey: U,
  anonymous: "ok",
  agentToken: U,
};
const every = (status: number) => ({
  owner: status,
  admin: status,
  granted: status,
  notGranted: status,
  otherOwner: status,
  revokedKey: status,
  anonymous: status,
  agentToken: status,
});

/** Organization A's integer id, with a theme saved (inserted directly, once). */
async function themedA(fx: Fixture): Promise<number> {
  await fx
    .knex("docs_themes")
    .insert({
      organization_id: fx.orgA,
      site_name: THEME.siteName,
      logo_url: THEME.logoUrl,
      colors_light: JSON.stringify(THEME.colorsLight),
      colors_dark: JSON.stringify(THEME.colorsDark),
    })
    .onConflict("organization_id")
    .ignore();
  return (await fx.knex("organizations").where({ id: fx.orgA }).first("database_id")).databaseId;
}

/** GraphQL rows of the docs root fields. */
export const docsGraphqlRows: GraphqlRow[] = [
  {
    field: "Query.docsTheme",
    operation: "query($org: ID!) { docsTheme(organizationId: $org) { siteName } }",
    variables: (fx) => ({ org: fx.orgA }),
    expect: gate(),
  },
  {
    field: "Mutation.setDocsTheme",
    operation:
      "mutation($org: ID!, $input: DocsThemeInput!) { setDocsTheme(organizationId: $org, input: $input) { siteName } }",
    variables: (fx) => ({ org: fx.orgA, input: THEME }),
    expect: gate(),
  },
  {
    field: "Query.publicDocsTheme",
    operation: "query($id: Int) { publicDocsTheme(databaseId: $id) { siteName } }",
    variables: async (fx) => ({ id: await themedA(fx) }),
    expect: open,
  },
  {
    field: "Query.docsHostLookup",
    operation: 'query { docsHostLookup(hostname: "docs.matrix.test") }',
    expect: open,
  },
  {
    field: "Mutation.syncDocsRegistrations",
    operation:
      'mutation { syncDocsRegistrations(licenseKey: "not-a-license-0123456789", registrations: []) { hostname } }',
    expect: { ...gate(U), granted: U, notGranted: U, otherOwner: U, owner: U, admin: U },
  },
];

/** REST rows of the docs routes. */
export const docsRestRows: RestRow[] = [
  {
    route: "GET /o/:databaseId/api/theme",
    call: async (fx) => ({ url: `/o/${await themedA(fx)}/api/theme` }),
    expect: every(200),
  },
  {
    // The fixture has several organizations: the bare path belongs to single-organization instances.
    route: "GET /api/theme",
    call: () => ({ url: "/api/theme" }),
    expect: every(404),
  },
  {
    route: "GET /api/docs/lookup",
    call: () => ({ url: "/api/docs/lookup?hostname=docs.matrix.test" }),
    expect: every(404),
  },
  {
    // Persona credentials are not license keys.
    route: "POST /api/docs/sync",
    call: () => ({ url: "/api/docs/sync", body: { registrations: [] } }),
    expect: every(401),
  },
  {
    route: "GET /docs-theme.js",
    call: () => ({ url: "/docs-theme.js" }),
    expect: every(200),
  },
];
