/**
 * Compiled-read SQL of schema/providers.graphql (src/reads/compiler.ts), the only implementation of these reads:
 * an organization's git providers, container registries and SSH keys, oldest first (every member of the
 * organization sees them; never a password or a private key), and where each is found by id.
 */
import { hasMany, type ReadTypes } from "../../reads/index.ts";
import { containerRegistryTable, gitProviderTable, sshKeyTable } from "./provider.tables.ts";

/**
 * Organization.gitProviders/containerRegistries/sshKeys; the fields of GitProvider, ContainerRegistry and SshKey are
 * their columns (derived from the descriptors, src/reads/columns.ts).
 */
export const providerReads: ReadTypes = {
  Organization: {
    gitProviders: hasMany(gitProviderTable, "organization_id"),
    containerRegistries: hasMany(containerRegistryTable, "organization_id"),
    sshKeys: hasMany(sshKeyTable, "organization_id"),
  },
};
