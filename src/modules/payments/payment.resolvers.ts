/** Resolvers of schema/payments.graphql: thin calls into payment-gateway.service.ts and the loaders. */
import type { Resolvers } from "../../generated/graphql.ts";
import { checkPageSize } from "../../shared/pagination.ts";
import { isAllowed } from "../access/index.ts";
import { gatewayClient } from "./gateway-client.ts";
import { type PaymentRelay, PROVISIONING_CODE } from "./payment.model.ts";
import {
  createPaymentGatewayService,
  deletePaymentGatewayService,
  paymentMethodsOf,
  setPaymentMethodEnabled,
  updatePaymentGatewayService,
} from "./payment-gateway.service.ts";

/** PaymentGatewayService, PaymentRelay, Project.paymentGatewayServices and the mutations. */
export const paymentResolvers: Resolvers = {
  Project: {
    paymentGatewayServices: (p, _a, ctx) => ctx.loaders.payments.servicesByProject.load(p.id),
  },
  PaymentGatewayService: {
    project: async (s, _a, ctx) => (await ctx.loaders.projects.byId.load(s.projectId))!,
    merchantCode: async (s, _a, ctx) => {
      const m = await ctx.loaders.payments.merchantByOrganization.load(s.organizationId);
      return m?.status === "active" && m.merchantCode ? m.merchantCode : PROVISIONING_CODE;
    },
    merchantStatus: async (s, _a, ctx) => {
      const m = await ctx.loaders.payments.merchantByOrganization.load(s.organizationId);
      return m?.status === "active" ? "ACTIVE" : "PROVISIONING";
    },
    signingKey: async (s, _a, ctx) => {
      const access = await ctx.scope.forOrg(s.organizationId);
      if (!access || !isAllowed(access.role, "payment:manage")) return null;
      const m = await ctx.loaders.payments.merchantByOrganization.load(s.organizationId);
      return m?.signingKeySealed ? ctx.services.secrets.decrypt(m.signingKeySealed) : null;
    },
    checkoutUrl: async (s, _a, ctx) => {
      const m = await ctx.loaders.payments.merchantByOrganization.load(s.organizationId);
      return m?.status === "active" && m.merchantCode
        ? gatewayClient(ctx.services.config).checkoutUrl(m.merchantCode)
        : null;
    },
    paymentMethods: async (s, _a, ctx) =>
      paymentMethodsOf(ctx, (await ctx.loaders.payments.merchantByOrganization.load(s.organizationId)) ?? undefined),
    relays: async (s, { first }, ctx) => {
      const size = checkPageSize(first ?? 20, 100);
      return (await ctx
        .knex("payment_relays")
        .where({ serviceId: s.id })
        .orderBy("id", "desc")
        .limit(size)) as PaymentRelay[];
    },
  },
  PaymentRelay: {
    outcome: (r) => (r.outcome === "delivered" ? "DELIVERED" : r.outcome === "refused" ? "REFUSED" : "FAILED"),
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
