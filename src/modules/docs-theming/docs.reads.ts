/**
 * Compiled-read SQL of schema/docs-theming.graphql (src/reads/compiler.ts), the only implementation of these reads: an
 * organization's docs theme for its owners and admins (`docsTheme`; anyone else, and an unknown organization,
 * NOT_FOUND), its hostname's registration (`docsRegistration`, null until a hostname is saved), and the public theme
 * document (`publicDocsTheme`, no credentials). A theme's row carries its organization's `database_id` and, as `id`,
 * its organization's id (one theme per organization: what `setDocsTheme`'s answer is re-read by, docs.tables.ts). The
 * fields built from configuration — `DocsRegistration.cnameTarget`, `themeUrl`, `loaderSnippet` — are resolvers
 * reading the row the statement carries (docs.resolvers.ts).
 */

import { type ComputedColumns, column, type ReadTypes, timestamp } from "../../reads/index.ts";
import { NotFoundError } from "../../shared/errors.ts";
import { organizationIdOfDatabaseIdSql, organizationRefSql, parseOrganizationRef } from "../organizations/index.ts";
import { docsThemeTable, managedOrganizations } from "./docs.tables.ts";

/** The columns of a theme, as `DocsTheme` and `PublicDocsTheme` read them. */
const themeColumns = {
  siteName: column("site_name"),
  logoUrl: column("logo_url"),
  faviconUrl: column("favicon_url"),
  colorsLight: column("colors_light"),
  colorsDark: column("colors_dark"),
  footerText: column("footer_text"),
  customCss: column("custom_css"),
  updatedAt: timestamp("updated_at"),
};

/** Query.docsTheme, Query.publicDocsTheme, DocsTheme and PublicDocsTheme. */
export const docsReads: ReadTypes = {
  Query: {
    // `organizationId`: the TypeID or the integer databaseId. Null when no theme is saved.
    docsTheme: ({ compiler, args, nodes, returnType }) => {
      const ref = String(args.organizationId);
      const notFound = new NotFoundError("Organization", ref);
      // Owners and admins; a member gets NOT_FOUND, as a non-member does (nothing of the theme is theirs to see).
      const managed = managedOrganizations(compiler);
      const parsed = parseOrganizationRef(ref);
      if (!parsed || ("id" in parsed && !managed.includes(parsed.id))) throw notFound;
      const organizationId = organizationRefSql(compiler, ref);
      const x = compiler.alias();
      const theme = compiler.one(
        returnType,
        x,
        nodes,
        `from ${docsThemeTable.table} ${x} where ${x}.organization_id = ${organizationId}`,
      );
      const visible = `${organizationId} = any(${compiler.param(managed)}::text[])`;
      return theme && compiler.json(`(case when ${visible} then ${theme.sql} else ${compiler.fail(notFound).sql} end)`);
    },
    // No credentials. Without `databaseId`: the only organization of a single-organization instance.
    publicDocsTheme: ({ compiler, args, nodes, returnType }) => {
      const databaseId = typeof args.databaseId === "number" ? args.databaseId : null;
      const notFound = new NotFoundError(
        "Organization",
        databaseId === null ? "(single-organization instance)" : String(databaseId),
      );
      const organizationId = organizationIdOfDatabaseIdSql(compiler, databaseId);
      const x = compiler.alias();
      const theme = compiler.one(
        returnType,
        x,
        nodes,
        `from docs_themes ${x} where ${x}.organization_id = ${organizationId}`,
      );
      const known = `${organizationId} is not null`;
      return theme && compiler.json(`(case when ${known} then ${theme.sql} else ${compiler.fail(notFound).sql} end)`);
    },
  },
  DocsTheme: {
    ...themeColumns,
    // Null until a hostname is saved; then as the last synchronisation reported it.
    docsRegistration: ({ compiler, alias, nodes, returnType }) => {
      const registration = compiler.object(returnType, alias, nodes);
      return (
        registration &&
        compiler.json(`(case when ${alias}.docs_hostname is null then null else ${registration.sql} end)`)
      );
    },
  },
  // Built from the theme's row (`cnameTarget` is the instance's configuration: a resolver).
  DocsRegistration: {
    hostname: column("docs_hostname"),
    syncedAt: timestamp("docs_synced_at"),
    dns: column("docs_dns"),
    conflict: column("docs_conflict"),
  },
  PublicDocsTheme: themeColumns,
};

/** What of its row each computed field of the module reads (ComputedColumns): URLs from the configuration. */
export const docsComputedColumns: ComputedColumns = {
  DocsTheme: { themeUrl: ["database_id"], loaderSnippet: [] },
  DocsRegistration: { cnameTarget: [] },
};
