/**
 * Per-request loader of projects by id for services (e.g. a write checks its project exists and is visible).
 * Visibility (organization membership and member grants) is applied inside: an invisible project loads as null,
 * exactly like a missing one. GraphQL reads of projects are compiled SQL (project.sql-reads.ts).
 */

import DataLoader from "dataloader";
import type { Knex } from "knex";
import { can } from "../../auth/access/policy.ts";
import { orderByKeys } from "../../db/loader-utils.ts";
import type { AccessScope } from "../access/index.ts";
import { Project } from "./project.model.ts";

/** Builds the project loader of one request. */
export function createProjectLoaders(knex: Knex, scope: AccessScope) {
  const projectById = new DataLoader<string, Project | null>(async (ids) => {
    const [rows, orgs] = await Promise.all([Project.query(knex).whereIn("id", ids as string[]), scope.memberships()]);
    const visible = rows.filter((p) => {
      const access = orgs.get(p.organizationId);
      return access !== undefined && can(access, "project:see", { projectId: p.id });
    });
    return orderByKeys(ids, visible, (p) => p.id);
  });

  return { byId: projectById };
}
