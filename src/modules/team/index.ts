/** Module manifest: members, roles, grants and invitations (schema/team.graphql). */

import { defineModule } from "../module.ts";
import { createTeamLoaders } from "./team.loaders.ts";
import { teamResolvers } from "./team.resolvers.ts";

declare module "../module.ts" {
  interface ModuleLoaders {
    team: ReturnType<typeof createTeamLoaders>;
  }
}

/** The team module. */
export const teamModule = defineModule({
  name: "team",
  tables: ["invitations"],
  resolvers: teamResolvers,
  // The invitation page reads a link and creates the invitee's account before anyone is signed in.
  publicRootFields: ["invitationLink", "signUpWithInvitation"],
  createLoaders: ({ knex, scope }) => createTeamLoaders(knex, scope),
});

// For the sign-in hooks (src/server/start.ts): account events of better-auth.
export { emitAccountEvent } from "./account-events.ts";
