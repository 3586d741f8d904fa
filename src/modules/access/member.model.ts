/** Memberships, roles and grants (tables shared with better-auth: `members`; ours: `member_grants`), owned by the access module. */
import type { Role } from "../../auth/access/standing.ts";
import { BaseModel } from "../../db/base-model.ts";
import { memberGrantTable, memberTable } from "./access.tables.ts";

/** Membership of a user in an organization. */
export class Member extends BaseModel {
  static override tableName = memberTable.table;
  static override idKind = "member" as const;
  declare organizationId: string;
  declare userId: string;
  declare role: Role;
  declare createdAt: Date;
  /** Whether grants limit the member (role `member`): set by its first grant, cleared by revoking its last. */
  declare limitedToGrants: boolean;
}

/** Limits a `member` to one project or one application (spec: per-project grants). */
export class MemberGrant extends BaseModel {
  static override tableName = memberGrantTable.table;
  static override idKind = "grant" as const;
  declare memberId: string;
  declare projectId: string | null;
  declare applicationId: string | null;
  declare createdAt: Date;
}
