/** Module manifest: organizations, plans, usage, the viewer, notification channels (schema/organizations.graphql). */

import { defineModule } from "../module.ts";
import { organizationReads } from "./organization.reads.ts";
import { organizationResolvers } from "./organization.resolvers.ts";
import { notificationChannelTable, organizationTable, userTable } from "./organization.tables.ts";

/** The organizations module. */
export const organizationsModule = defineModule({
  name: "organizations",
  tables: ["organizations", "plans", "users", "sessions", "notification_channels"],
  reads: organizationReads,
  descriptors: [organizationTable, userTable, notificationChannelTable],
  resolvers: organizationResolvers,
});

export { type CredentialSource, provideCredentialSource } from "./credential.reads.ts";
export { bootstrapFirstRun, type FirstRun } from "./first-run.service.ts";
// The public surface: what other modules may import (they import nothing else of this folder).
export { Organization, User } from "./organization.model.ts";
export {
  deleteUser,
  findUserByEmail,
  lockOrganization,
  noticeRecipients,
  organizationExists,
  organizationNumber,
  organizationNumbers,
  organizationSummary,
  setActiveOrganization,
  userById,
  userIdsWithEmail,
  usersByIds,
} from "./organization.queries.ts";
export {
  databaseIdOfOrganizationSql,
  organizationIdOfDatabaseIdSql,
  planFeaturesSql,
} from "./organization.reads.ts";
export { organizationTable } from "./organization.tables.ts";
export { findOrganizationByRef, organizationRefSql, parseOrganizationRef } from "./organization-ref.ts";
export type { QuotaKind } from "./quota.ts";
export { assertQuota, planNameOf, provideQuotaCounter, quotaMessage, quotaStatus } from "./quota.ts";
