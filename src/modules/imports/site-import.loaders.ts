/**
 * Per-request loaders and visibility of import records. A record belongs to one organization; another
 * organization's record loads as null, exactly like a missing one (spec: Site import rule 8). A member limited
 * by grants sees only imports whose project is granted to it (imports without a project stay hidden from it).
 */
import DataLoader from "dataloader";
import type { Knex } from "knex";
import { can } from "../../auth/access/policy.ts";
import type { OrgAccess } from "../../auth/access/standing.ts";
import { orderByKeys } from "../../db/loader-utils.ts";
import type { AccessScope } from "../access/index.ts";
import { SiteImport } from "./site-import.model.ts";

/** True when `access` may see `record` (same organization assumed). */
export function canSeeImport(access: OrgAccess, record: Pick<SiteImport, "projectId">): boolean {
  if (!access.grants) return true;
  return record.projectId !== null && can(access, "project:see", { projectId: record.projectId });
}

/** Builds the import loaders of one request. */
export function createSiteImportLoaders(knex: Knex, scope: AccessScope) {
  const siteImportById = new DataLoader<string, SiteImport | null>(async (ids) => {
    const [rows, orgs] = await Promise.all([
      SiteImport.query(knex).whereIn("id", ids as string[]),
      scope.memberships(),
    ]);
    const visible = rows.filter((r) => {
      const access = orgs.get(r.organizationId);
      return access !== undefined && canSeeImport(access, r);
    });
    return orderByKeys(ids, visible, (r) => r.id);
  });
  return { byId: siteImportById };
}
