/** Account API keys (table `api_keys`, written by better-auth's api-key plugin; spec: Authentication). */
import { BaseModel } from "../../db/base-model.ts";
import { apiKeyTable } from "./api-key.tables.ts";

/** An API key row. `key` is the SHA-256 hash of the secret; the secret itself is never stored. */
export class ApiKey extends BaseModel {
  static override tableName = apiKeyTable.table;
  static override idKind = "apiKey" as const;
  declare name: string | null;
  /** The secret's hash (better-auth's default key hasher; src/auth/credentials/api-key.ts `hashApiKey`). */
  declare key: string;
  /** `skiff_` when the secret starts with it, else null. */
  declare prefix: string | null;
  /** First characters of the secret, e.g. `skiff_AbCd`. */
  declare start: string | null;
  /** The creating user (better-auth's `referenceId`). */
  declare referenceId: string;
  /** The organization the key is bound to. */
  declare organizationId: string;
  declare enabled: boolean;
  /** Last authenticated request (better-auth's `lastRequest`), updated by src/auth/credentials/api-key.ts. */
  declare lastRequest: Date | null;
  declare createdAt: Date;
}
