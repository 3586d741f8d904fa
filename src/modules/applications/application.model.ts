/** Applications, their domains and environment variables. */
import { BaseModel } from "../../db/base-model.ts";
import { applicationTable, domainTable, environmentVariableTable } from "./application.tables.ts";

/** Source settings stored as JSON on an application (spec: import request `source`). */
export interface ApplicationSourceSettings {
  repo?: string;
  branch?: string;
  buildPath?: string;
  dockerImage?: string;
  gitProviderId?: string;
  customGitUrl?: string;
  customGitSSHKeyId?: string;
}

/** A deployable service inside an environment. */
export class Application extends BaseModel {
  static override tableName = applicationTable.table;
  static override idKind = "application" as const;
  static override jsonAttributes = ["source"];
  declare organizationId: string;
  declare projectId: string;
  declare environmentId: string;
  declare name: string;
  declare appName: string;
  declare sourceType: "github" | "gitlab" | "docker" | "git" | null;
  declare source: ApplicationSourceSettings;
  declare buildType: "dockerfile" | "nixpacks" | null;
  declare port: number;
  declare applicationStatus: string | null;
  /** `unknown`, `healthy` or `unhealthy` (src/modules/deployments/health.ts). */
  declare health: "unknown" | "healthy" | "unhealthy";
  /** When health was last checked; null when never. */
  declare healthCheckedAt: Date | null;
  /** Path the health probe requests, starting with `/`. */
  declare healthPath: string;
  /** Settings, variables or domains changed after the last deployment was queued (cleared by queueing one). */
  declare needsDeployment: boolean;
  declare createdAt: Date;
  declare updatedAt: Date;
  /**
   * Children loaded with the application in the same statement (application.rows.ts); resolvers use them instead
   * of their loaders. `deployments.first`: how many newest deployments were fetched.
   */
  declare prefetched?: { domains?: Domain[]; deployments?: { first: number; rows: unknown[] } };
}

/** A custom domain (host unique platform-wide). */
export class Domain extends BaseModel {
  static override tableName = domainTable.table;
  static override idKind = "domain" as const;
  declare organizationId: string;
  declare applicationId: string;
  declare host: string;
  declare port: number | null;
  declare https: boolean | null;
  declare createdAt: Date;
}

/** An environment variable; the value is stored encrypted (see src/db/secrets.ts). */
export class EnvironmentVariable extends BaseModel {
  static override tableName = environmentVariableTable.table;
  static override idKind = "envVar" as const;
  declare applicationId: string;
  declare key: string;
  declare valueEncrypted: string;
  declare createdAt: Date;
}
