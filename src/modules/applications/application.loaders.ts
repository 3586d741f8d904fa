/**
 * Per-request loader of applications by id for services (deploys, grants, deploy settings check their
 * application with it). Visibility is applied inside: an ungranted or foreign application loads as null. GraphQL
 * reads of applications, domains and databases are compiled SQL (application.sql-reads.ts).
 */
import DataLoader from "dataloader";
import type { Knex } from "knex";
import { can } from "../../auth/access/policy.ts";
import { orderByKeys } from "../../db/loader-utils.ts";
import type { AccessScope } from "../access/index.ts";
import { Application } from "./application.model.ts";

/** Builds the application loader of one request. */
export function createApplicationLoaders(knex: Knex, scope: AccessScope) {
  const applicationById = new DataLoader<string, Application | null>(async (ids) => {
    const [rows, orgs] = await Promise.all([
      Application.query(knex).whereIn("id", ids as string[]),
      scope.memberships(),
    ]);
    const visible = rows.filter((a) => {
      const access = orgs.get(a.organizationId);
      return access !== undefined && can(access, "application:see", a);
    });
    return orderByKeys(ids, visible, (a) => a.id);
  });

  return { byId: applicationById };
}
