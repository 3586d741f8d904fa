/** Prerequisites of imports: git providers, container registries and SSH keys, all per organization. */
import { BaseModel } from "../../db/base-model.ts";

/** A configured GitHub or GitLab connection of an organization. */
export class GitProvider extends BaseModel {
  static override tableName = "git_providers";
  static override idKind = "gitProvider" as const;
  declare organizationId: string;
  declare type: "github" | "gitlab";
  declare name: string;
  declare createdAt: Date;
}

/** A container registry of an organization (the platform default comes from configuration). */
export class ContainerRegistry extends BaseModel {
  static override tableName = "container_registries";
  static override idKind = "registry" as const;
  declare organizationId: string;
  declare name: string;
  declare url: string;
  declare username: string | null;
  declare passwordEncrypted: string | null;
  declare createdAt: Date;
}

/** A stored SSH key for private git repositories; the private key is stored encrypted. */
export class SshKey extends BaseModel {
  static override tableName = "ssh_keys";
  static override idKind = "sshKey" as const;
  declare organizationId: string;
  declare name: string;
  declare publicKey: string;
  declare privateKeyEncrypted: string;
  declare createdAt: Date;
}
