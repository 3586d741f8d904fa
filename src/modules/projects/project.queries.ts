/**
 * Named reads of this module's tables for other modules: e.g. the payments module reads the organization of the
 * project a gateway service is created in. One statement each on the caller's `db`; no access check (the caller's).
 */
import type { Knex } from "knex";

/** `{ id, organizationId }` of project `id`, or undefined when it does not exist. */
export async function projectOrganization(
  db: Knex | Knex.Transaction,
  id: string,
): Promise<{ id: string; organizationId: string } | undefined> {
  return db("projects").where({ id }).first("id", "organization_id");
}
