/**
 * The organization export's read of database services (docs/organization-transfer.md): configuration (engine,
 * name, user, password decrypted for the exporter to encrypt to the bundle's recipient), never the data.
 */
import type { ServiceContext } from "../context.ts";
import type { DatabaseType } from "./database.model.ts";

/** A database service as the organization bundle carries it (ids: for the exporter to link rows). */
export interface ExportedDatabase {
  projectId: string;
  environmentId: string;
  type: DatabaseType;
  name: string;
  username: string;
  /** In clear: a secret, to be encrypted by the caller and never logged. */
  password: string;
}

/** Every database service of `organizationId`, by name. The caller checks access (owners only). */
export async function exportDatabases(ctx: ServiceContext, organizationId: string): Promise<ExportedDatabase[]> {
  const rows = await ctx
    .knex("databases")
    .where({ organization_id: organizationId })
    .orderBy(["name", "service_host"])
    .select("project_id", "environment_id", "type", "name", "username", "password_encrypted");
  return rows.map((r: ExportedDatabase & { passwordEncrypted: string }) => ({
    projectId: r.projectId,
    environmentId: r.environmentId,
    type: r.type,
    name: r.name,
    username: r.username,
    password: ctx.services.secrets.decrypt(r.passwordEncrypted),
  }));
}
