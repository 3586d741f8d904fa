/**
 * The descriptors of the providers module's tables (src/reads/tables.ts): git providers, container registries and
 * SSH keys, each visible to the members of its organization.
 */
import { callerOrganizationSql, defineTable, type TableDescriptor } from "../../reads/index.ts";

/** A table of rows of type `typeName` belonging to an organization, visible to the organization's members. */
const ofCallerOrganization = (typeName: string, table: string): TableDescriptor =>
  defineTable(typeName, table, (sql, alias) => callerOrganizationSql(sql, `${alias}.organization_id`));

/** The `git_providers` table: `GitProvider` rows. */
export const gitProviderTable = ofCallerOrganization("GitProvider", "git_providers");
/** The `container_registries` table: `ContainerRegistry` rows. */
export const containerRegistryTable = ofCallerOrganization("ContainerRegistry", "container_registries");
/** The `ssh_keys` table: `SshKey` rows. */
export const sshKeyTable = ofCallerOrganization("SshKey", "ssh_keys");
