/**
 * Resolvers of schema/team.graphql: the team mutations, the public invitation link, and `Invitation.link` (a
 * decrypted token). Members, grants and invitations are read by compiled SQL (team.reads.ts,
 * access/access.reads.ts).
 */
import type { Resolvers } from "../../generated/graphql.ts";
import { grantAccess, revokeAccess } from "./grant.service.ts";
import type { InvitationLinkRow } from "./invitation.model.ts";
import {
  cancelInvitation,
  describeInvitationLink,
  inviteMember,
  readableLinkOf,
  resendInvitation,
} from "./invitation.service.ts";
import { acceptInvitation, signUpWithInvitation } from "./invitation-accept.service.ts";
import { leaveOrganization, removeMember, transferOwnership, updateMemberRole } from "./member.service.ts";

/** `invitationLink`, the team mutations and `Invitation.link`. */
export const teamResolvers: Resolvers = {
  Query: {
    invitationLink: (_p, { token }, ctx) => describeInvitationLink(ctx, token),
  },
  Mutation: {
    inviteMember: (_p, { input }, ctx) => inviteMember(ctx, input),
    resendInvitation: (_p, { id }, ctx) => resendInvitation(ctx, id),
    cancelInvitation: (_p, { id }, ctx) => cancelInvitation(ctx, id),
    acceptInvitation: (_p, { token }, ctx) => acceptInvitation(ctx, token),
    signUpWithInvitation: (_p, { input }, ctx) => signUpWithInvitation(ctx, input),
    updateMemberRole: (_p, { memberId, role }, ctx) => updateMemberRole(ctx, memberId, role),
    removeMember: (_p, { memberId }, ctx) => removeMember(ctx, memberId),
    leaveOrganization: (_p, { organizationId }, ctx) => leaveOrganization(ctx, organizationId),
    transferOwnership: (_p, { memberId }, ctx) => transferOwnership(ctx, memberId),
    grantAccess: (_p, { input }, ctx) => grantAccess(ctx, input),
    revokeAccess: (_p, { grantId }, ctx) => revokeAccess(ctx, grantId),
  },
  Invitation: {
    // A decrypted token, owners and admins only: from the invitation's row (the compiled read's `__row`).
    link: (i, _a, ctx) => readableLinkOf(ctx, i as unknown as InvitationLinkRow),
  },
};
