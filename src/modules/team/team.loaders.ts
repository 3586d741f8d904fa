/**
 * Per-request loaders for members, grants and invitations. Visibility inside: only organizations the caller
 * belongs to yield rows; anything else loads as null or [] (→ NOT_FOUND), exactly like a missing id.
 */
import DataLoader from "dataloader";
import type { Knex } from "knex";
import { groupByKeys, orderByKeys } from "../../db/loader-utils.ts";
import type { AccessScope } from "../access/index.ts";
import { Member, MemberGrant } from "../access/index.ts";
import { Invitation } from "./invitation.model.ts";

/** Builds the team loaders of one request. */
export function createTeamLoaders(knex: Knex, scope: AccessScope) {
  const visibleOrgIds = async (ids: readonly string[]) => {
    const orgs = await scope.memberships();
    return ids.filter((id) => orgs.has(id));
  };

  const memberById = new DataLoader<string, Member | null>(async (ids) => {
    const [rows, orgs] = await Promise.all([Member.query(knex).whereIn("id", ids as string[]), scope.memberships()]);
    return orderByKeys(
      ids,
      rows.filter((m) => orgs.has(m.organizationId)),
      (m) => m.id,
    );
  });

  const membersByOrganization = new DataLoader<string, Member[]>(async (orgIds) => {
    const rows = await Member.query(knex)
      .whereIn("organizationId", await visibleOrgIds(orgIds))
      .orderBy("id");
    return groupByKeys(orgIds, rows, (m) => m.organizationId);
  });

  // Callers reach grants only through a visible member.
  const grantsByMember = new DataLoader<string, MemberGrant[]>(async (memberIds) => {
    const rows = await MemberGrant.query(knex)
      .whereIn("memberId", memberIds as string[])
      .orderBy("id");
    return groupByKeys(memberIds, rows, (g) => g.memberId);
  });

  const invitationsByOrganization = new DataLoader<string, Invitation[]>(async (orgIds) => {
    const rows = await Invitation.query(knex)
      .whereIn("organizationId", await visibleOrgIds(orgIds))
      .orderBy("id", "desc");
    return groupByKeys(orgIds, rows, (i) => i.organizationId);
  });

  return { memberById, membersByOrganization, grantsByMember, invitationsByOrganization };
}
