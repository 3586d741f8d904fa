/**
 * The organization bundle's read of pending invitations (docs/organization-transfer.md): an import plan counts a
 * bundle member already invited (pending, not expired) as existing.
 */

import type { Role } from "../../auth/access/standing.ts";
import type { ServiceContext } from "../context.ts";

/** The pending, unexpired invitations of `organizationId` (e-mail lower-cased, role), by e-mail. */
export async function pendingInvitations(
  ctx: ServiceContext,
  organizationId: string,
): Promise<Array<{ email: string; role: Role }>> {
  const rows = await ctx
    .knex("invitations")
    .where({ organization_id: organizationId, status: "pending" })
    .where("expires_at", ">", ctx.services.now())
    .orderBy("email")
    .select("email", "role");
  return rows.map((r: { email: string; role: Role }) => ({ email: r.email.toLowerCase(), role: r.role }));
}
