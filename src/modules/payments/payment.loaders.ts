/**
 * Per-request loaders of the payments module. Visibility comes from the parent: `servicesByProject` is only asked
 * for projects the caller already sees; `merchantByOrganization` only for visible services.
 */
import DataLoader from "dataloader";
import type { Knex } from "knex";
import { groupByKeys, orderByKeys } from "../../db/loader-utils.ts";
import type { PaymentGatewayService, PaymentMerchant } from "./payment.model.ts";

/** Builds the payments loaders of one request. */
export function createPaymentLoaders(knex: Knex) {
  return {
    /** Gateway services of each project, oldest first. */
    servicesByProject: new DataLoader<string, PaymentGatewayService[]>(async (projectIds) => {
      const rows = (await knex("payment_gateway_services")
        .whereIn("projectId", projectIds as string[])
        .orderBy("id")) as PaymentGatewayService[];
      return groupByKeys(projectIds, rows, (r) => r.projectId);
    }),
    /** The merchant of each organization, or null. */
    merchantByOrganization: new DataLoader<string, PaymentMerchant | null>(async (orgIds) => {
      const rows = (await knex("payment_merchants").whereIn("organizationId", orgIds as string[])) as PaymentMerchant[];
      return orderByKeys(orgIds, rows, (r) => r.organizationId);
    }),
  };
}
