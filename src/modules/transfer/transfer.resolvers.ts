/** Resolvers of schema/transfer.graphql: thin calls into the export and import-plan services. */
import type { Resolvers } from "../../generated/graphql.ts";
import { exportOrganization } from "./organization-export.service.ts";
import { planOrganizationImport } from "./organization-import-plan.service.ts";

/** `organizationExport` and `organizationImportPlan`. */
export const transferResolvers: Resolvers = {
  Query: {
    organizationExport: async (_p, { organizationId, recipient, passphrase }, ctx) =>
      (await exportOrganization(ctx, organizationId, { recipient, passphrase })) as unknown as Record<string, unknown>,
    organizationImportPlan: (_p, { organizationId, bundle, identity, passphrase }, ctx) =>
      planOrganizationImport(ctx, organizationId, bundle, { identity, passphrase }),
  },
};
