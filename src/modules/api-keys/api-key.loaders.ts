/**
 * Per-request loader of an organization's API keys, with visibility inside (spec: keys are personal): owners
 * and admins see every key of their organization, members only their own, non-members nothing.
 */
import DataLoader from "dataloader";
import type { Knex } from "knex";
import { groupByKeys } from "../../db/loader-utils.ts";
import type { AccessScope } from "../access/index.ts";
import { seesAllApiKeys } from "../access/index.ts";
import { ApiKey } from "./api-key.model.ts";

/** Builds the API key loaders of one request. */
export function createApiKeyLoaders(knex: Knex, scope: AccessScope) {
  const apiKeysByOrganization = new DataLoader<string, ApiKey[]>(async (orgIds) => {
    const orgs = await scope.memberships();
    const userId = scope.principal?.userId ?? "";
    const visible = orgIds.flatMap((id) => {
      const access = orgs.get(id);
      return access ? [{ id, all: seesAllApiKeys(access) }] : [];
    });
    const rows = visible.length
      ? await ApiKey.query(knex)
          .where((w) => {
            for (const org of visible) {
              w.orWhere((o) => {
                o.where("organizationId", org.id);
                if (!org.all) o.where("referenceId", userId);
              });
            }
          })
          .orderBy("id", "desc")
      : [];
    return groupByKeys(orgIds, rows, (k) => k.organizationId);
  });

  return { byOrganization: apiKeysByOrganization };
}
