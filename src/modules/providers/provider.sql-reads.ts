/**
 * Compiled-read SQL of schema/providers.graphql (src/reads/compiler.ts), the only implementation of these reads:
 * an organization's git providers, container registries and SSH keys, oldest first (every member of the
 * organization sees them; never a password or a private key), and where each is found by id.
 */
import {
  callerOrganizationSql,
  checkedEnum,
  column,
  hasMany,
  type SqlReadRowSource,
  type SqlReadRows,
  type SqlReadTypes,
  timestamp,
} from "../../reads/index.ts";

/** A table of rows belonging to an organization, visible to the organization's members. */
const ofCallerOrganization = (table: string): SqlReadRowSource => ({
  table,
  visible: (compiler, alias) => callerOrganizationSql(compiler, `${alias}.organization_id`),
});

/** Where git providers, container registries and SSH keys are found by id. */
export const providerSqlRows: SqlReadRows = {
  GitProvider: ofCallerOrganization("git_providers"),
  ContainerRegistry: ofCallerOrganization("container_registries"),
  SshKey: ofCallerOrganization("ssh_keys"),
};

/** Organization.gitProviders/containerRegistries/sshKeys, GitProvider, ContainerRegistry and SshKey. */
export const providerSqlReads: SqlReadTypes = {
  Organization: {
    gitProviders: hasMany("GitProvider", "git_providers", "organization_id"),
    containerRegistries: hasMany("ContainerRegistry", "container_registries", "organization_id"),
    sshKeys: hasMany("SshKey", "ssh_keys", "organization_id"),
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
