/**
 * The GraphQL documents of Settings → Webhooks (schema/webhooks.graphql), typed by the codegen client preset.
 */
import { graphql } from "../../gql/index.ts";

export type {
  WebhookDeliveryRowFragment as WebhookDeliveryRow,
  WebhookEndpointRowFragment as WebhookEndpointRow,
} from "../../gql/graphql.ts";

export const WEBHOOK_ENDPOINT_ROW = graphql(`
  fragment WebhookEndpointRow on WebhookEndpoint {
    webhookUuid url events isActive description creationDate updateDate
  }
`);

export const WEBHOOK_DELIVERY_ROW = graphql(`
  fragment WebhookDeliveryRow on WebhookDeliveryAttempt {
    deliveryId event attempt success responseStatus errorMessage durationMs createdAt
  }
`);

export const WEBHOOKS = graphql(`
  query Webhooks($organizationId: ID!) {
    webhooks(organizationId: $organizationId) { ...WebhookEndpointRow }
    webhookEvents(organizationId: $organizationId) { name category description }
  }
`);

export const WEBHOOK_DELIVERIES = graphql(`
  query WebhookDeliveries($organizationId: ID!, $webhookUuid: ID!, $limit: Int) {
    webhookDeliveries(organizationId: $organizationId, webhookUuid: $webhookUuid, limit: $limit) {
      ...WebhookDeliveryRow
    }
  }
`);

export const CREATE_WEBHOOK = graphql(`
  mutation CreateWebhook($organizationId: ID!, $input: CreateWebhookInput!) {
    createWebhook(organizationId: $organizationId, input: $input) { secret webhook { ...WebhookEndpointRow } }
  }
`);
export const UPDATE_WEBHOOK = graphql(`
  mutation UpdateWebhook($organizationId: ID!, $webhookUuid: ID!, $input: UpdateWebhookInput!) {
    updateWebhook(organizationId: $organizationId, webhookUuid: $webhookUuid, input: $input) { ...WebhookEndpointRow }
  }
`);
export const DELETE_WEBHOOK = graphql(`
  mutation DeleteWebhook($organizationId: ID!, $webhookUuid: ID!) {
    deleteWebhook(organizationId: $organizationId, webhookUuid: $webhookUuid)
  }
`);
export const REGENERATE_WEBHOOK_SECRET = graphql(`
  mutation RegenerateWebhookSecret($organizationId: ID!, $webhookUuid: ID!) {
    regenerateWebhookSecret(organizationId: $organizationId, webhookUuid: $webhookUuid) { secret }
  }
`);
export const TEST_WEBHOOK = graphql(`
  mutation TestWebhook($organizationId: ID!, $webhookUuid: ID!) {
    testWebhook(organizationId: $organizationId, webhookUuid: $webhookUuid) {
      deliveryId
      firstAttempt { ...WebhookDeliveryRow }
    }
  }
`);
export const REDELIVER_WEBHOOK = graphql(`
  mutation RedeliverWebhook($organizationId: ID!, $webhookUuid: ID!, $deliveryId: String!) {
    redeliverWebhook(organizationId: $organizationId, webhookUuid: $webhookUuid, deliveryId: $deliveryId)
  }
`);
