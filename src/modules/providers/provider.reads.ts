/**
 * Compiled-read SQL of schema/providers.graphql (src/reads/compiler.ts), the only implementation of these reads:
 * an organization's git providers, container registries and SSH keys, oldest first (every member of the
 * organization sees them; never a password or a private key), and where each is found by id.
 */
import { checkedEnum, column, hasMany, type ReadTypes, timestamp } from "../../reads/index.ts";
import { containerRegistryTable, gitProviderTable, sshKeyTable } from "./provider.tables.ts";

/** Organization.gitProviders/containerRegistries/sshKeys, GitProvider, ContainerRegistry and SshKey. */
export const providerReads: ReadTypes = {
  Organization: {
    gitProviders: hasMany(gitProviderTable, "organization_id"),
    containerRegistries: hasMany(containerRegistryTable, "organization_id"),
    sshKeys: hasMany(sshKeyTable, "organization_id"),
  },
  GitProvider: {
    id: column("id"),
    type: checkedEnum("type"),
    name: column("name"),
    createdAt: timestamp("created_at"),
  },
  ContainerRegistry: {
    id: column("id"),
    name: column("name"),
    url: column("url"),
    username: column("username"),
    createdAt: timestamp("created_at"),
  },
  SshKey: {
    id: column("id"),
    name: column("name"),
    publicKey: column("public_key"),
    createdAt: timestamp("created_at"),
  },
};
