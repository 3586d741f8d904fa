/**
 * Codegen mappers of this module: GraphQL type → the TypeScript type that backs it in resolvers
 * (`file#Export`, relative to this folder). Read by codegen.ts.
 */
export default {
  PaymentGatewayService: "./payment.model.ts#PaymentGatewayService",
  PaymentRelay: "./payment.model.ts#PaymentRelay",
  PaymentMethod: "./gateway-client.ts#GatewayMethod",
} satisfies Record<string, string>;
