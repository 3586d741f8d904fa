/** Rows of the webhook tables (migration 20261122000600), as Knex returns them (camelCase columns). */

/** `webhook_endpoints`. */
export interface WebhookEndpointRow {
  id: string;
  organizationId: string;
  url: string;
  events: string[];
  secretEncrypted: string;
  isActive: boolean;
  description: string | null;
  createdByUserId: string | null;
  failingSince: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** State of a delivery: its attempt series is running, or ended in one of three ways. */
export type DeliveryStatus = "pending" | "delivered" | "failed" | "cancelled";

/** `webhook_deliveries`: one event to one endpoint, with the envelope stored as sent. */
export interface WebhookDeliveryRow {
  id: string;
  endpointId: string;
  organizationId: string;
  event: string;
  body: string;
  status: DeliveryStatus;
  attempts: number;
  createdAt: Date;
  updatedAt: Date;
}

/** `webhook_delivery_attempts`: one entry of the delivery log. */
export interface WebhookAttemptRow {
  id: number;
  deliveryId: string;
  endpointId: string;
  event: string;
  attempt: number;
  success: boolean;
  responseStatus: number | null;
  responseBody: string | null;
  errorMessage: string | null;
  durationMs: number;
  createdAt: Date;
}

/** Backing value of GraphQL `WebhookEndpoint`. */
export type WebhookEndpoint = WebhookEndpointRow;

/** Backing value of GraphQL `CreatedWebhookEndpoint` (create and regenerate-secret answers). */
export interface WebhookWithSecret {
  webhook: WebhookEndpointRow;
  /** Shown this once. */
  secret: string;
}
