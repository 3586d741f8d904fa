/**
 * Per-request loaders for organizations, plans, usage counts, notification channels and users.
 * An organization the caller does not belong to loads as null (→ NOT_FOUND).
 */
import DataLoader from "dataloader";
import type { Knex } from "knex";
import { groupByKeys, orderByKeys } from "../../db/loader-utils.ts";
import type { AccessScope } from "../access/index.ts";
import { NotificationChannel } from "./notification-channel.model.ts";
import { Organization, Plan, User } from "./organization.model.ts";
import { usageOfOrganizations } from "./quota.ts";

/** Counts of quota-limited resources of one organization. */
export interface Usage {
  projects: number;
  applications: number;
  databases: number;
  domains: number;
}

/** Builds the organization loaders of one request. */
export function createOrganizationLoaders(knex: Knex, scope: AccessScope) {
  const organizationById = new DataLoader<string, Organization | null>(async (ids) => {
    const orgs = await scope.memberships();
    const rows = await Organization.query(knex).whereIn(
      "id",
      ids.filter((id) => orgs.has(id)),
    );
    return orderByKeys(ids, rows, (o) => o.id);
  });

  const planById = new DataLoader<string, Plan | null>(async (ids) => {
    const rows = await Plan.query(knex).whereIn("id", ids as string[]);
    return orderByKeys(ids, rows, (p) => p.id);
  });

  const usageByOrganization = new DataLoader<string, Usage>((ids) => usageOfOrganizations(knex, ids));

  const userById = new DataLoader<string, User | null>(async (ids) => {
    const rows = await User.query(knex).whereIn("id", ids as string[]);
    return orderByKeys(ids, rows, (u) => u.id);
  });

  const notificationChannelsByOrganization = new DataLoader<string, NotificationChannel[]>(async (orgIds) => {
    const orgs = await scope.memberships();
    const rows = await NotificationChannel.query(knex)
      .whereIn(
        "organizationId",
        orgIds.filter((id) => orgs.has(id)),
      )
      .orderBy("id");
    return groupByKeys(orgIds, rows, (c) => c.organizationId);
  });

  return { byId: organizationById, planById, usageByOrganization, userById, notificationChannelsByOrganization };
}
