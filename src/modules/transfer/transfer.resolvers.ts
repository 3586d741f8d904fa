/** Resolvers of schema/transfer.graphql: thin calls into the export service. */
import type { Resolvers } from "../../generated/graphql.ts";
import { exportOrganization } from "./organization-export.service.ts";

/** `organizationExport`. */
export const transferResolvers: Resolvers = {
  Query: {
    organizationExport: async (_p, { organizationId, recipient, passphrase }, ctx) =>
      (await exportOrganization(ctx, organizationId, { recipient, passphrase })) as unknown as Record<string, unknown>,
  },
};
