/** Module manifest: organizations, plans, usage, the viewer, notification channels (schema/organizations.graphql). */

import { defineModule } from "../module.ts";
import { createOrganizationLoaders } from "./organization.loaders.ts";
import { organizationResolvers } from "./organization.resolvers.ts";

declare module "../module.ts" {
  interface ModuleLoaders {
    organizations: ReturnType<typeof createOrganizationLoaders>;
  }
}

/** The organizations module. */
export const organizationsModule = defineModule({
  name: "organizations",
  tables: ["organizations", "plans", "users", "sessions", "notification_channels"],
  resolvers: organizationResolvers,
  createLoaders: ({ knex, scope }) => createOrganizationLoaders(knex, scope),
});

// The public surface: what other modules may import (issue 24; they import nothing else of this folder).
export { Organization, User } from "./organization.model.ts";
export {
  notificationChannelsTable,
  organizationsTable,
  sessionsTable,
  usersTable,
} from "./organization.queries.ts";
export type { QuotaKind } from "./quota.ts";
export { assertQuota, planNameOf, provideQuotaCounter, quotaMessage, quotaStatus } from "./quota.ts";
