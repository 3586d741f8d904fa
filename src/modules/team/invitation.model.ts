/**
 * Invitations (table `invitations`, shared with better-auth's organization plugin; spec: Invitation states).
 * Stored statuses are better-auth's (`pending`, `accepted`, `rejected`, `canceled`); the spec's status is derived
 * by {@link invitationStatus}.
 */
import type { Role } from "../../auth/access/standing.ts";
import { BaseModel } from "../../db/base-model.ts";
import { invitationTable } from "./team.tables.ts";

/** Status as stored in `invitations.status`. */
export type StoredInvitationStatus = "pending" | "accepted" | "rejected" | "canceled";

/** Status as the spec names it: `revoked` = cancelled, `expired` = pending past `expiresAt`. */
export type InvitationStatus = "pending" | "accepted" | "revoked" | "expired";

/** Lifetime of an invitation: 48 hours from creation (spec: Limits), in milliseconds. */
export const INVITATION_LIFETIME_MS = 48 * 60 * 60 * 1000;

/** A grant an invited `member` receives on joining: exactly one of the two ids. */
export interface PendingGrant {
  projectId?: string;
  applicationId?: string;
}

/** An invitation of one e-mail address to one organization with a role. */
export class Invitation extends BaseModel {
  static override tableName = invitationTable.table;
  static override jsonAttributes = ["pendingGrants"];
  static override idKind = "invitation" as const;
  declare organizationId: string;
  declare email: string;
  declare role: Role;
  declare status: StoredInvitationStatus;
  declare inviterId: string;
  declare expiresAt: Date;
  declare createdAt: Date;
  /** SHA-256 (hex) of the link token; null for invitations made outside Skiff's service. */
  declare tokenHash: string | null;
  /** The link token, encrypted with the server secret (src/db/secrets.ts). */
  declare tokenEncrypted: string | null;
  /** Grants given on joining (a `member` only). */
  declare pendingGrants: PendingGrant[];
  /** The member joins limited to `pendingGrants`, even when none is left (`members.limited_to_grants`). */
  declare limitedToGrants: boolean;
}

/**
 * The spec status of `invitation` at instant `now`; `expiresAt` a `Date` or, in a compiled read's row, its ISO text.
 * (team.reads.ts derives the same in SQL.)
 */
export function invitationStatus(
  invitation: { status: StoredInvitationStatus; expiresAt: Date | string },
  now: Date,
): InvitationStatus {
  if (invitation.status === "accepted") return "accepted";
  if (invitation.status === "canceled" || invitation.status === "rejected") return "revoked";
  return new Date(invitation.expiresAt).getTime() > now.getTime() ? "pending" : "expired";
}

/** The columns of an invitation's row that `Invitation.link` reads (a compiled read's `__row`, camelCased). */
export type InvitationLinkRow = Pick<Invitation, "organizationId" | "status" | "tokenEncrypted"> & {
  expiresAt: Date | string;
};
