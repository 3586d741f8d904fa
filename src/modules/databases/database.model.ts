/** Database services. */
import { BaseModel } from "../../db/base-model.ts";
import { databaseTable } from "./database.tables.ts";

/** Database engines (spec: database.type). */
export type DatabaseType = "mariadb" | "mysql" | "postgres" | "mongodb";

/** A database service in an environment; the password is stored encrypted. */
export class Database extends BaseModel {
  static override tableName = databaseTable.table;
  static override idKind = "database" as const;
  declare organizationId: string;
  declare projectId: string;
  declare environmentId: string;
  declare type: DatabaseType;
  declare name: string;
  declare username: string;
  declare passwordEncrypted: string;
  declare serviceHost: string;
  declare createdAt: Date;
}
