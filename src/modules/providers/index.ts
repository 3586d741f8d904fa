/** Module manifest: git providers, container registries and SSH keys (schema/providers.graphql). */

import { defineModule } from "../module.ts";
import { providerReads } from "./provider.reads.ts";
import { providerResolvers } from "./provider.resolvers.ts";
import { containerRegistryTable, gitProviderTable, sshKeyTable } from "./provider.tables.ts";

/** The providers module. */
export const providersModule = defineModule({
  name: "providers",
  tables: ["git_providers", "container_registries", "ssh_keys"],
  reads: providerReads,
  descriptors: [gitProviderTable, containerRegistryTable, sshKeyTable],
  resolvers: providerResolvers,
});

// The public surface: what other modules may import (they import nothing else of this folder).
export {
  buildCredentialsOf,
  gitProviderOfKind,
  gitProviderType,
  registriesOfOrganization,
  sshKeyOfOrganization,
} from "./provider.service.ts";
