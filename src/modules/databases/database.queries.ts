/**
 * Named reads of this module's table for other modules: the deployments module renders an environment's databases
 * and keeps an organization's database objects through these, one statement each, on the caller's `db`.
 */
import type { Knex } from "knex";
import type { DatabaseType } from "./database.model.ts";

type Db = Knex | Knex.Transaction;

/** A database as the render of an application reads it (password encrypted). */
export interface DatabaseToRender {
  id: string;
  type: DatabaseType;
  name: string;
  username: string;
  passwordEncrypted: string;
  serviceHost: string;
}

/** The databases of environment `environmentId`, oldest first, with what the render needs. */
export async function databasesToRender(db: Db, environmentId: string): Promise<DatabaseToRender[]> {
  return db("databases")
    .where({ environment_id: environmentId })
    .orderBy("created_at")
    .select("id", "type", "name", "username", "password_encrypted", "service_host");
}

/** The ids of the databases of organization `organizationId`. */
export async function databaseIdsOfOrganization(db: Db, organizationId: string): Promise<string[]> {
  return db("databases").where({ organization_id: organizationId }).pluck("id");
}

/** `{ id, name }` of the databases of project `projectId`, oldest first. */
export async function databasesOfProject(db: Db, projectId: string): Promise<Array<{ id: string; name: string }>> {
  return db("databases").where({ project_id: projectId }).orderBy(["created_at", "id"]).select("id", "name");
}
