/**
 * Compiled-read SQL of schema/payments.graphql (src/reads/compiler.ts), the only implementation of these reads:
 * a project's payment gateway services, oldest first (visible with their project), their organization's merchant
 * code and status, and their relay log. A service's row carries its merchant's columns (payment.tables.ts), so
 * the fields answered outside the database — `signingKey` (decrypted, owners and admins), `checkoutUrl`
 * (configuration) and `paymentMethods` (the gateway) — read them from the row (payment.resolvers.ts). The project is
 * declared by the projects module.
 */

import { type ComputedColumns, column, hasMany, pageSizeArg, type ReadTypes, timestamp } from "../../reads/index.ts";
import { PROVISIONING_CODE } from "./payment.model.ts";
import { paymentServiceTable } from "./payment.tables.ts";

/** Project.paymentGatewayServices, PaymentGatewayService (its columns and relays) and PaymentRelay. */
export const paymentReads: ReadTypes = {
  // Callers reach a project's services through visible projects only.
  Project: {
    paymentGatewayServices: hasMany(paymentServiceTable, "project_id"),
  },
  PaymentGatewayService: {
    merchantCode: ({ compiler, alias }) =>
      `coalesce(case when ${alias}.merchant_status = 'active' then ${alias}.merchant_code end, ${compiler.param(PROVISIONING_CODE)})`,
    merchantStatus: ({ alias }) =>
      `(case when ${alias}.merchant_status = 'active' then 'ACTIVE' else 'PROVISIONING' end)`,
    // Newest first; `first` 1..100 (default 20). @throws BAD_USER_INPUT otherwise.
    relays: (field) => {
      const { compiler, alias, nodes } = field;
      const first = pageSizeArg(field, "first");
      const [r, x] = [compiler.alias(), compiler.alias()];
      const page = `select * from payment_relays ${x} where ${x}.service_id = ${alias}.id order by ${x}.id desc limit ${compiler.param(first)}`;
      return compiler.list("PaymentRelay", r, nodes, `from (${page}) ${r}`, `${r}.id desc`);
    },
  },
  PaymentRelay: {
    id: column("id"),
    eventType: column("event_type"),
    knownEvent: column("known_event"),
    externalReference: column("external_reference"),
    targetUrl: column("target_url"),
    outcome: ({ alias }) =>
      `(case ${alias}.outcome when 'delivered' then 'DELIVERED' when 'refused' then 'REFUSED' else 'FAILED' end)`,
    statusCode: column("status_code"),
    error: column("error"),
    durationMs: column("duration_ms"),
    createdAt: timestamp("created_at"),
  },
};

/**
 * What of its row each computed field of the module reads (ComputedColumns): the signing key (decrypted, for
 * `payment:manage`) and the checkout URL (an active merchant's code), from the service's row joined with its
 * organization's merchant (payment.tables.ts). `paymentMethods` asks the gateway: an object type, left to the executor.
 */
export const paymentComputedColumns: ComputedColumns = {
  PaymentGatewayService: {
    signingKey: ["organization_id", "signing_key_sealed"],
    checkoutUrl: ["merchant_status", "merchant_code"],
  },
};
