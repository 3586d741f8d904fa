/** Resolvers of schema/team.graphql: thin calls into the team services and loaders. */
import type { Resolvers } from "../../generated/graphql.ts";
import { grantAccess, revokeAccess } from "./grant.service.ts";
import { invitationStatus } from "./invitation.model.ts";
import {
  cancelInvitation,
  canReadLinks,
  describeInvitationLink,
  inviteMember,
  linkOf,
  resendInvitation,
} from "./invitation.service.ts";
import { acceptInvitation, signUpWithInvitation } from "./invitation-accept.service.ts";
import { removeMember, transferOwnership, updateMemberRole } from "./member.service.ts";

/** Member, MemberGrant, Invitation resolvers, `Organization.members`/`invitations` and the team mutations. */
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
    transferOwnership: (_p, { memberId }, ctx) => transferOwnership(ctx, memberId),
    grantAccess: (_p, { input }, ctx) => grantAccess(ctx, input),
    revokeAccess: (_p, { grantId }, ctx) => revokeAccess(ctx, grantId),
  },
  Organization: {
    members: (o, _a, ctx) => ctx.loaders.team.membersByOrganization.load(o.id),
    invitations: async (o, { status }, ctx) => {
      const all = await ctx.loaders.team.invitationsByOrganization.load(o.id);
      const now = ctx.services.now();
      return status ? all.filter((i) => invitationStatus(i, now) === status) : all;
    },
  },
  Member: {
    user: async (m, _a, ctx) => (await ctx.loaders.organizations.userById.load(m.userId))!,
    organization: async (m, _a, ctx) => (await ctx.loaders.organizations.byId.load(m.organizationId))!,
    grants: (m, _a, ctx) => ctx.loaders.team.grantsByMember.load(m.id),
  },
  MemberGrant: {
    project: (g, _a, ctx) => (g.projectId ? ctx.loaders.projects.byId.load(g.projectId) : null),
    application: (g, _a, ctx) => (g.applicationId ? ctx.loaders.applications.byId.load(g.applicationId) : null),
  },
  Invitation: {
    status: (i, _a, ctx) => invitationStatus(i, ctx.services.now()),
    invitedBy: (i, _a, ctx) => ctx.loaders.organizations.userById.load(i.inviterId),
    link: async (i, _a, ctx) =>
      invitationStatus(i, ctx.services.now()) === "pending" && (await canReadLinks(ctx, i.organizationId))
        ? linkOf(ctx, i)
        : null,
  },
};
