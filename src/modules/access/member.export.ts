/**
 * The organization export's read of members, their roles and grants (docs/organization-transfer.md): the bundle
 * carries them as invitations to send on the target instance.
 */

import type { Role } from "../../auth/access/standing.ts";
import type { ServiceContext } from "../context.ts";

/** A member as the organization export reads it (the exporter resolves the user and the grants' targets). */
export interface ExportedMember {
  userId: string;
  role: Role;
  /** Limited to `grants`, even when none is left (`members.limited_to_grants`). */
  limitedToGrants: boolean;
  /** Each grant names a project or an application (never both). */
  grants: Array<{ projectId: string | null; applicationId: string | null }>;
}

/** Every member of `organizationId` with its grants, oldest first. The caller checks access (owners only). */
export async function exportMembers(ctx: ServiceContext, organizationId: string): Promise<ExportedMember[]> {
  const members = await ctx
    .knex("members")
    .where({ organization_id: organizationId })
    .orderBy(["created_at", "id"])
    .select("id", "user_id", "role", "limited_to_grants");
  const grants = await ctx
    .knex("member_grants")
    .whereIn(
      "member_id",
      members.map((m: { id: string }) => m.id),
    )
    .select("member_id", "project_id", "application_id");
  return members.map((m: { id: string; userId: string; role: Role; limitedToGrants: boolean }) => ({
    userId: m.userId,
    role: m.role,
    limitedToGrants: m.limitedToGrants,
    grants: grants
      .filter((g: { memberId: string }) => g.memberId === m.id)
      .map((g: { projectId: string | null; applicationId: string | null }) => ({
        projectId: g.projectId ?? null,
        applicationId: g.applicationId ?? null,
      })),
  }));
}
