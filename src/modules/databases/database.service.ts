/**
 * Database service writes and the connection settings an application gets for it
 * (spec: "Automatic environment variables"). Callers own the transaction.
 */

import { randomInt } from "node:crypto";
import type { Knex } from "knex";
import { translateUniqueViolations } from "../../shared/constraint-errors.ts";
import { namespaceOf } from "../../shared/tenant-namespace.ts";
import { withTransaction } from "../../shared/transaction.ts";
import type { ServiceContext } from "../context.ts";
import { assertQuota, provideQuotaCounter } from "../organizations/index.ts";
import { Database, type DatabaseType } from "./database.model.ts";

/** What a database is created from; `password` in plain text (stored encrypted). */
export interface DatabaseSpec {
  type: DatabaseType;
  name: string;
  user: string;
  password: string;
}

/** Port each engine listens on inside the cluster. */
export const DATABASE_PORT: Record<DatabaseType, number> = {
  mariadb: 3306,
  mysql: 3306,
  postgres: 5432,
  mongodb: 27017,
};

/**
 * Internal cluster hostname of a database service of organization `organizationId`: its Service in the
 * organization's namespace, `<appName>-db.<namespace>.<clusterDomain>` (docs/deployments.md "Tenant namespaces"),
 * e.g. `shop-7k2mq3-db.skiff-org-01h….svc.cluster.local`. Unique because `appName` is (and
 * `databases.service_host` is unique).
 */
export function databaseServiceHost(appName: string, organizationId: string, clusterDomain: string): string {
  return `${appName}-db.${namespaceOf(organizationId)}.${clusterDomain}`;
}

/**
 * The variables set on an application using `db` at `host` (spec table "Automatic environment variables"):
 * DB_HOST, DB_DATABASE, DB_USERNAME, DB_PASSWORD for all engines; DB_PORT and DB_CONNECTION for mysql/mariadb;
 * DATABASE_URL for postgres; MONGO_URL for mongodb. User, password and name are percent-encoded inside URLs.
 */
export function databaseEnvVars(db: DatabaseSpec, host: string): Record<string, string> {
  const vars: Record<string, string> = {
    DB_HOST: host,
    DB_DATABASE: db.name,
    DB_USERNAME: db.user,
    DB_PASSWORD: db.password,
  };
  const credentials = `${encodeURIComponent(db.user)}:${encodeURIComponent(db.password)}`;
  const path = encodeURIComponent(db.name);
  switch (db.type) {
    case "mysql":
    case "mariadb":
      vars.DB_PORT = String(DATABASE_PORT[db.type]);
      vars.DB_CONNECTION = db.type;
      break;
    case "postgres":
      vars.DATABASE_URL = `postgresql://${credentials}@${host}:${DATABASE_PORT.postgres}/${path}`;
      break;
    case "mongodb":
      vars.MONGO_URL = `mongodb://${credentials}@${host}:${DATABASE_PORT.mongodb}/${path}`;
      break;
  }
  return vars;
}

/**
 * Creates a database service after checking the databases quota, in one transaction (the caller's when
 * `ctx.knex` is one); the password is stored encrypted.
 * @throws QuotaExceededError when the plan's databases quota is reached; ConflictError when `serviceHost` is taken or
 * the environment has a database of that name.
 */
export function createDatabase(
  ctx: ServiceContext,
  input: DatabaseSpec & { organizationId: string; projectId: string; environmentId: string; serviceHost: string },
): Promise<Database> {
  return withTransaction(ctx, async ({ knex: trx }) => {
    await assertQuota(trx, input.organizationId, "databases");
    return translateUniqueViolations(
      () =>
        Database.query(trx)
          .insert({
            organizationId: input.organizationId,
            projectId: input.projectId,
            environmentId: input.environmentId,
            type: input.type,
            name: input.name,
            username: input.user,
            passwordEncrypted: ctx.services.secrets.encrypt(input.password),
            serviceHost: input.serviceHost,
          })
          .returning("*"),
      {
        databases_service_host_unique: `Database host ${input.serviceHost} is already in use`,
        databases_environment_id_name_unique: {
          message: `The environment already has a database named "${input.name}"`,
          field: "name",
        },
      },
    );
  });
}

const PASSWORD_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** A new random password: 32 letters and digits (about 190 bits), safe inside connection URLs unescaped. */
export function generateDatabasePassword(): string {
  return Array.from({ length: 32 }, () => PASSWORD_ALPHABET[randomInt(PASSWORD_ALPHABET.length)]).join("");
}

/** Database `id` locked (`for update`) for the rest of the caller's transaction, or undefined when it is gone. */
export async function lockDatabase(trx: Knex.Transaction, id: string): Promise<Database | undefined> {
  return await Database.query(trx).findById(id).forUpdate();
}

/** The connection settings of stored database `db` with its password decrypted (for {@link databaseEnvVars}). */
export function databaseSpecOf(ctx: ServiceContext, db: Database): DatabaseSpec {
  return {
    type: db.type,
    name: db.name,
    user: db.username,
    password: ctx.services.secrets.decrypt(db.passwordEncrypted),
  };
}

/** Stores `password` (encrypted) as database `id`'s password (no access check). @returns the updated row. */
export async function replaceDatabasePassword(ctx: ServiceContext, id: string, password: string): Promise<Database> {
  const [row] = await Database.query(ctx.knex)
    .patch({ passwordEncrypted: ctx.services.secrets.encrypt(password) })
    .where({ id })
    .returning("*");
  if (!row) throw new Error(`Database ${id} vanished while locked`);
  return row;
}

/** Deletes database `id` (no access check). @returns whether it existed. */
export async function deleteDatabaseRow(ctx: ServiceContext, id: string): Promise<boolean> {
  return (await Database.query(ctx.knex).deleteById(id)) > 0;
}

/** How many databases environment `environmentId` holds. */
export async function databasesInEnvironment(db: Knex | Knex.Transaction, environmentId: string): Promise<number> {
  const [{ count }] = (await db("databases").where({ environment_id: environmentId }).count("*")) as [
    { count: string | number },
  ];
  return Number(count);
}

/** Query (not run) of the databases of `organizationId` (quotas). */
export function databasesOfOrganization(db: Knex | Knex.Transaction, organizationId: string): Knex.QueryBuilder {
  return db("databases").where("organization_id", organizationId);
}
provideQuotaCounter("databases", databasesOfOrganization);
