/** Module manifest: git providers, container registries and SSH keys (schema/providers.graphql). */

import { defineModule } from "../module.ts";
import { createProviderLoaders } from "./provider.loaders.ts";
import { providerResolvers } from "./provider.resolvers.ts";

declare module "../module.ts" {
  interface ModuleLoaders {
    providers: ReturnType<typeof createProviderLoaders>;
  }
}

/** The providers module. */
export const providersModule = defineModule({
  name: "providers",
  tables: ["git_providers", "container_registries", "ssh_keys"],
  resolvers: providerResolvers,
  createLoaders: ({ knex }) => createProviderLoaders(knex),
});

// The public surface: what other modules may import (issue 24; they import nothing else of this folder).
export {
  buildCredentialsOf,
  gitProviderType,
  registriesOfOrganization,
  sshKeyOfOrganization,
} from "./provider.service.ts";
