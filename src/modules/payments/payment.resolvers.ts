/**
 * Resolvers of schema/payments.graphql: the mutations, and the fields of a gateway service answered outside the
 * database, from the service's row (payment.reads.ts): the decrypted signing key, the checkout URL
 * (configuration) and the gateway's payment methods. Services and relays are read by compiled SQL.
 */
import { can } from "../../auth/access/policy.ts";
import type { Resolvers } from "../../generated/graphql.ts";
import { gatewayClient } from "./gateway-client.ts";
import type { PaymentGatewayServiceRow } from "./payment.model.ts";
import {
  createPaymentGatewayService,
  deletePaymentGatewayService,
  paymentMethodsOf,
  setPaymentMethodEnabled,
  updatePaymentGatewayService,
} from "./payment-gateway.service.ts";

/** A gateway service as its resolvers receive it: the compiled read's row. */
const rowOf = (s: unknown) => s as PaymentGatewayServiceRow;

/** PaymentGatewayService's signing key, checkout URL and payment methods, and the mutations. */
export const paymentResolvers: Resolvers = {
  PaymentGatewayService: {
    signingKey: async (s, _a, ctx) => {
      const row = rowOf(s);
      const access = await ctx.scope.forOrg(row.organizationId);
      if (!access || !can(access, "payment:manage")) return null;
      return row.signingKeySealed ? ctx.services.secrets.decrypt(row.signingKeySealed) : null;
    },
    checkoutUrl: (s, _a, ctx) => {
      const row = rowOf(s);
      return row.merchantStatus === "active" && row.merchantCode
        ? gatewayClient(ctx.services.config).checkoutUrl(row.merchantCode)
        : null;
    },
    paymentMethods: (s, _a, ctx) => paymentMethodsOf(ctx, rowOf(s)),
  },
  Mutation: {
    createPaymentGatewayService: (_p, args, ctx) => createPaymentGatewayService(ctx, args),
    updatePaymentGatewayService: (_p, { id, name, webhookUrl }, ctx) =>
      updatePaymentGatewayService(ctx, id, { name, webhookUrl }),
    deletePaymentGatewayService: (_p, { id }, ctx) => deletePaymentGatewayService(ctx, id),
    setPaymentMethodEnabled: (_p, { serviceId, method, enabled }, ctx) =>
      setPaymentMethodEnabled(ctx, serviceId, method, enabled),
  },
};
