/**
 * Codegen mappers of this module: GraphQL type → the TypeScript type that backs it in resolvers
 * (`file#Export`, relative to this folder). Read by codegen.ts.
 */
export default {
  WebhookEndpoint: "./webhook.model.ts#WebhookEndpointRow",
  WebhookEndpointWithSecret: "./webhook.model.ts#WebhookWithSecret",
  WebhookDeliveryAttempt: "./webhook.model.ts#WebhookAttemptRow",
  WebhookTestResult: "./webhook.service.ts#WebhookTestOutcome",
  WebhookEventType: "../../shared/events/catalogue.ts#WebhookEventType",
} satisfies Record<string, string>;
