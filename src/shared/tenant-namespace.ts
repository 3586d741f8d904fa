/**
 * The namespaces of an organization (docs/deployments.md "Tenant namespaces"): stable names derived from the
 * organization's TypeID, shared by the renderer (src/modules/deployments) and the modules that generate in-cluster
 * hostnames (a database's `DB_HOST`), which must agree on them.
 */

/** The namespace of organization `organizationId` (a TypeID): `skiff-org-<its 26-character suffix>`. @throws Error on anything else. */
export function namespaceOf(organizationId: string): string {
  const suffix = organizationId.slice(organizationId.lastIndexOf("_") + 1).toLowerCase();
  if (!/^[0-9a-z]{1,52}$/.test(suffix)) throw new Error(`not an organization id: ${organizationId}`);
  return `skiff-org-${suffix}`;
}

/** The namespace of organization `organizationId`'s build Jobs: {@link namespaceOf}`-build`. */
export function buildNamespaceOf(organizationId: string): string {
  return `${namespaceOf(organizationId)}-build`;
}
