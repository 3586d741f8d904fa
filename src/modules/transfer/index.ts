/**
 * Module manifest: transfer — the organization bundle (docs/organization-transfer.md, schema/transfer.graphql,
 * `GET /api/organizations/:id/export`, `POST …/import-plan`, `POST …/import`). It owns no table: it reads every other
 * module through that module's public export function and assembles the versioned bundle (bundle.schema.ts), secrets
 * encrypted with age; an import writes through each module's public management services.
 */
import { defineModule } from "../module.ts";
import { transferResolvers } from "./transfer.resolvers.ts";
import { transferRoutes } from "./transfer.rest.ts";

/** The transfer module. */
export const transferModule = defineModule({
  name: "transfer",
  resolvers: transferResolvers,
  restRoutes: transferRoutes,
});
