/** Projects and their environments. */
import { BaseModel } from "../../db/base-model.ts";
import type { ConnectionModel } from "../../shared/pagination.ts";
import { environmentTable, projectTable } from "./project.tables.ts";

/** A project of an organization; name unique per organization. */
export class Project extends BaseModel {
  static override tableName = projectTable.table;
  static override idKind = "project" as const;
  declare organizationId: string;
  declare name: string;
  declare description: string | null;
  declare createdAt: Date;
  declare updatedAt: Date;
}

/** An environment of a project (`production` is created with every project). */
export class Environment extends BaseModel {
  static override tableName = environmentTable.table;
  static override idKind = "environment" as const;
  declare projectId: string;
  declare name: string;
  declare createdAt: Date;
  /** Filled by loaders that join `projects` for visibility checks. */
  declare organizationId?: string;
}

/** A page of projects as returned by resolvers (GraphQL `ProjectConnection`). */
export type ProjectConnection = ConnectionModel<Project>;
