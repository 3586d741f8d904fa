/** Module manifest: members, roles, grants and invitations (schema/team.graphql). */

import { defineModule } from "../module.ts";
import { teamComputedColumns, teamReads } from "./team.reads.ts";
import { teamResolvers } from "./team.resolvers.ts";
import { invitationTable } from "./team.tables.ts";

/** The team module. */
export const teamModule = defineModule({
  name: "team",
  tables: ["invitations"],
  reads: teamReads,
  descriptors: [invitationTable],
  computedColumns: teamComputedColumns,
  resolvers: teamResolvers,
  // The invitation page reads a link and creates the invitee's account before anyone is signed in.
  publicRootFields: ["invitationLink", "signUpWithInvitation"],
});

// For the sign-in hooks (src/server/start.ts): account events of better-auth.
export { emitAccountEvent } from "./account-events.ts";
// For the organization import plan (src/modules/transfer): who is invited already.
export { pendingInvitations } from "./invitation.export.ts";
// For the organization import: the `inviteMember` mutation's service.
export { inviteMember } from "./invitation.service.ts";
