/**
 * The descriptors of the providers module's tables (src/reads/tables.ts): git providers, container registries and
 * SSH keys, each visible to the members of its organization.
 */
import { callerOrganizationSql, defineTable, type TableDescriptor } from "../../reads/index.ts";

/**
 * A table (columns `columns`) of rows of type `typeName` belonging to an organization, visible to the organization's
 * members.
 */
const ofCallerOrganization = (typeName: string, table: string, columns: readonly string[]): TableDescriptor =>
  defineTable(typeName, table, columns, (sql, alias) => callerOrganizationSql(sql, `${alias}.organization_id`));

/** The `git_providers` table: `GitProvider` rows. */
export const gitProviderTable = ofCallerOrganization("GitProvider", "git_providers", [
  "id",
  "organization_id",
  "type",
  "name",
  "created_at",
]);
/** The `container_registries` table: `ContainerRegistry` rows. */
export const containerRegistryTable = ofCallerOrganization("ContainerRegistry", "container_registries", [
  "id",
  "organization_id",
  "name",
  "url",
  "username",
  "password_encrypted",
  "created_at",
]);
/** The `ssh_keys` table: `SshKey` rows. */
export const sshKeyTable = ofCallerOrganization("SshKey", "ssh_keys", [
  "id",
  "organization_id",
  "name",
  "public_key",
  "private_key_encrypted",
  "created_at",
]);
