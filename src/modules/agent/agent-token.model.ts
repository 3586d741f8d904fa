/** Agent tokens (table `agent_tokens`, migration 20261122000400). */
import { BaseModel } from "../../db/base-model.ts";

/**
 * A read-only personal token of one member for the agent API; unique per (organization, user), so creating a
 * new one replaces the old row. Only the SHA-256 of the secret is stored.
 */
export class AgentToken extends BaseModel {
  static override tableName = "agent_tokens";
  static override idKind = "agentToken" as const;
  declare organizationId: string;
  declare userId: string;
  declare memberId: string;
  declare tokenHash: string;
  /** First characters of the secret, e.g. `skiff_agt_Ab3xQz`. */
  declare prefix: string;
  declare createdAt: Date;
  declare lastUsedAt: Date | null;
  /** null: never expires. */
  declare expiresAt: Date | null;
}
