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
  resolvers: organizationResolvers,
  createLoaders: ({ knex, scope }) => createOrganizationLoaders(knex, scope),
});
