/**
 * Per-request loaders of an organization's git providers, container registries and SSH keys (oldest first).
 * Callers reach them through a visible Organization, so no further visibility applies.
 */
import DataLoader from "dataloader";
import type { Knex } from "knex";
import { groupByKeys } from "../../db/loader-utils.ts";
import { ContainerRegistry, GitProvider, SshKey } from "./provider.models.ts";

/** Builds the provider loaders of one request. */
export function createProviderLoaders(knex: Knex) {
  const gitProvidersByOrganization = new DataLoader<string, GitProvider[]>(async (orgIds) => {
    const rows = await GitProvider.query(knex)
      .whereIn("organizationId", orgIds as string[])
      .orderBy("id");
    return groupByKeys(orgIds, rows, (r) => r.organizationId);
  });
  const containerRegistriesByOrganization = new DataLoader<string, ContainerRegistry[]>(async (orgIds) => {
    const rows = await ContainerRegistry.query(knex)
      .whereIn("organizationId", orgIds as string[])
      .orderBy("id");
    return groupByKeys(orgIds, rows, (r) => r.organizationId);
  });
  const sshKeysByOrganization = new DataLoader<string, SshKey[]>(async (orgIds) => {
    const rows = await SshKey.query(knex)
      .whereIn("organizationId", orgIds as string[])
      .orderBy("id");
    return groupByKeys(orgIds, rows, (r) => r.organizationId);
  });
  return { gitProvidersByOrganization, containerRegistriesByOrganization, sshKeysByOrganization };
}
