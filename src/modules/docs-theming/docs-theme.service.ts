/**
 * The docs theme (spec "Docs-domain lookup and theme"): owners and admins save one theme per
 * organization, with its docs hostname. Reading a theme (`docsTheme`, and `publicDocsTheme` for anyone by the
 * organization's `databaseId`) is compiled SQL (docs.reads.ts).
 */
import type { Knex } from "knex";
import { uniqueViolation } from "../../shared/constraint-errors.ts";
import { BadUserInputError, NotFoundError } from "../../shared/errors.ts";
import { parseInput } from "../../shared/validate.ts";
import { organizationAccess } from "../access/index.ts";
import { writeWithAuditEntry } from "../audit/index.ts";
import type { ServiceContext } from "../context.ts";
import { findOrganizationByRef, organizationNumbers } from "../organizations/index.ts";
import { docsThemeInput } from "./docs-theme.input.ts";
import type { DocsThemeRow } from "./docs-theme.model.ts";

/**
 * The organization `ref` when the caller is its owner or admin.
 * @throws NotFoundError otherwise (unknown, not a member, or a `member`: nothing of the theme is theirs to see).
 */
async function managedDocsOrganization(ctx: ServiceContext, ref: string) {
  const org = await findOrganizationByRef(ctx.knex, ref);
  if (!org) throw new NotFoundError("Organization", ref);
  await organizationAccess(ctx.scope, {
    organizationId: org.id,
    action: "docs:manage",
    hideFromRoles: ["member"],
    notFoundRef: ref,
  });
  return org;
}

/** The theme row of organization `organizationId` with its `databaseId`, or null. */
async function loadTheme(knex: Knex, organizationId: string) {
  const row = await knex("docs_themes as t")
    .join(organizationNumbers(knex, "o"), "o.id", "t.organization_id")
    .where("t.organization_id", organizationId)
    .first("t.*", "t.organization_id as id", "o.database_id");
  return (row as DocsThemeRow | undefined) ?? null;
}

/**
 * Saves the organization's whole theme. A changed hostname starts unregistered (`PENDING`, not synced); the next
 * synchronisation reports it (or, cleared, removes it).
 * @throws NotFoundError; BadUserInputError with `fieldErrors` for each invalid field, including a hostname
 * another organization uses.
 */
export async function setDocsTheme(ctx: ServiceContext, organizationRef: string, raw: unknown): Promise<DocsThemeRow> {
  const org = await managedDocsOrganization(ctx, organizationRef);
  const input = parseInput(docsThemeInput, raw, "Invalid docs theme");
  const existing = await loadTheme(ctx.knex, org.id);
  const hostnameChanged = existing?.docsHostname !== input.docsHostname;
  const values = {
    site_name: input.siteName,
    logo_url: input.logoUrl,
    favicon_url: input.faviconUrl,
    colors_light: JSON.stringify(input.colorsLight),
    colors_dark: JSON.stringify(input.colorsDark),
    footer_text: input.footerText,
    custom_css: input.customCss,
    docs_hostname: input.docsHostname,
    updated_at: ctx.services.now(),
    ...(hostnameChanged || !existing ? { docs_synced_at: null, docs_dns: "PENDING", docs_conflict: false } : {}),
  };
  try {
    await writeWithAuditEntry(
      ctx,
      ctx
        .knex("docs_themes")
        .insert({ organization_id: org.id, ...values })
        .onConflict("organization_id")
        .merge()
        .returning("organization_id"),
    );
  } catch (error) {
    if (uniqueViolation(error) === "docs_themes_docs_hostname_unique") {
      throw new BadUserInputError("Invalid docs theme: docsHostname: already used by another organization", {
        fieldErrors: { docsHostname: ["Already used by another organization"] },
      });
    }
    throw error;
  }
  return (await loadTheme(ctx.knex, org.id))!;
}

/** `{base_url}/o/<databaseId>`: the `cloudUrl` of an organization (its theme is at `{cloudUrl}/api/theme`). */
export function cloudUrlOf(baseUrl: string | undefined, databaseId: number): string {
  return `${(baseUrl ?? "").replace(/\/+$/, "")}/o/${databaseId}`;
}

/**
 * The `<script>` tag docs sites include (GraphQL `DocsTheme.loaderSnippet`): the loader from the docs host
 * (`SKIFF_DOCS_HOST_URL`, else this instance's `SKIFF_BASE_URL`) with that host as `data-docs-host`.
 */
export function loaderSnippet(config: { SKIFF_DOCS_HOST_URL?: string; SKIFF_BASE_URL?: string }): string {
  const host = (config.SKIFF_DOCS_HOST_URL ?? config.SKIFF_BASE_URL ?? "").replace(/\/+$/, "");
  const attr = host.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
  return `<script src="${attr}/docs-theme.js" data-docs-host="${attr}"></script>`;
}
