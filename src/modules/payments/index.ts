/**
 * Module manifest: payment gateway services of projects, the organization's merchant at the gateway, method
 * toggles and the verified event relay (schema/payments.graphql, `POST /api/payment-gateway/events`; spec "Payment
 * gateway service").
 */
import { defineModule } from "../module.ts";
import { provisionMerchantJob, releaseMerchantJob } from "./merchant.jobs.ts";
import { paymentComputedColumns, paymentReads } from "./payment.reads.ts";
import { paymentResolvers } from "./payment.resolvers.ts";
import { paymentServiceTable } from "./payment.tables.ts";
import { paymentRoutes } from "./payments.rest.ts";

/** The payments module. */
export const paymentsModule = defineModule({
  name: "payments",
  tables: ["payment_gateway_services", "payment_merchants", "payment_relays"],
  reads: paymentReads,
  descriptors: [paymentServiceTable],
  computedColumns: paymentComputedColumns,
  resolvers: paymentResolvers,
  restRoutes: paymentRoutes,
  jobs: [provisionMerchantJob, releaseMerchantJob],
});

// The public surface: what other modules may import (they import nothing else of this folder).
export { type ExportedPaymentGatewayService, exportPaymentGatewayServices } from "./payment.export.ts";
// For the organization import: the `createPaymentGatewayService` mutation's service.
export { createPaymentGatewayService } from "./payment-gateway.service.ts";
