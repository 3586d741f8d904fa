/** Resolvers of schema/transfer.graphql: thin calls into the export, import-plan and import services. */
import type { Resolvers } from "../../generated/graphql.ts";
import { exportOrganization } from "./organization-export.service.ts";
import { importOrganization } from "./organization-import.service.ts";
import { planOrganizationImport } from "./organization-import-plan.service.ts";

/** `organizationExport`, `organizationImportPlan` and `importOrganization`. */
export const transferResolvers: Resolvers = {
  Query: {
    organizationExport: async (_p, { organizationId, recipient, passphrase }, ctx) =>
      (await exportOrganization(ctx, organizationId, { recipient, passphrase })) as unknown as Record<string, unknown>,
    organizationImportPlan: (_p, { organizationId, bundle, identity, passphrase }, ctx) =>
      planOrganizationImport(ctx, organizationId, bundle, { identity, passphrase }),
  },
  Mutation: {
    importOrganization: (_p, { organizationId, bundle, identity, passphrase, deploy }, ctx) =>
      importOrganization(ctx, organizationId, bundle, { identity, passphrase }, { deploy }),
  },
};
