/**
 * Compiled-read SQL of schema/docs.graphql (src/modules/sql-reads.ts), the only implementation of these reads: an
 * organization's docs theme for its owners and admins (`docsTheme`; anyone else, and an unknown organization,
 * NOT_FOUND), and the public theme document (`publicDocsTheme`, no credentials). A theme's row carries its
 * organization's `database_id`, so the fields built from configuration — `docsRegistration` (the CNAME target),
 * `themeUrl`, `loaderSnippet` — read it from the row (docs.resolvers.ts).
 */
import { NotFoundError } from "../../shared/errors.ts";
import { isAllowed } from "../access/index.ts";
import {
  databaseIdOfOrganizationSql,
  organizationIdOfDatabaseIdSql,
  organizationRefSql,
  parseOrganizationRef,
} from "../organizations/index.ts";
import { column, type SqlReadCompiler, type SqlReadTypes, timestamp } from "../sql-reads.ts";

/** Theme rows with their organization's `database_id` (SQL, to alias). */
function themeRows(compiler: SqlReadCompiler): string {
  const t = compiler.alias();
  return `(select ${t}.*, ${databaseIdOfOrganizationSql(compiler, `${t}.organization_id`)} as database_id
    from docs_themes ${t})`;
}

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
export const docsSqlReads: SqlReadTypes = {
  Query: {
    // `organizationId`: the TypeID or the integer databaseId. Null when no theme is saved.
    docsTheme: ({ compiler, args, nodes, returnType }) => {
      const ref = String(args.organizationId);
      const notFound = new NotFoundError("Organization", ref);
      // Owners and admins; a member gets NOT_FOUND, as a non-member does (nothing of the theme is theirs to see).
      const managed = [...compiler.caller.orgs.values()]
        .filter((access) => isAllowed(access.role, "docs:manage"))
        .map((access) => access.organizationId);
      const parsed = parseOrganizationRef(ref);
      if (!parsed || ("id" in parsed && !managed.includes(parsed.id))) throw notFound;
      const organizationId = organizationRefSql(compiler, ref);
      const x = compiler.alias();
      const theme = compiler.one(
        returnType,
        x,
        nodes,
        `from ${themeRows(compiler)} ${x} where ${x}.organization_id = ${organizationId}`,
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
    docsHostname: column("docs_hostname"),
  },
  PublicDocsTheme: themeColumns,
};
