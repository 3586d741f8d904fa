/**
 * Rows of the payment gateway tables (migration 20261122002000) as services and resolvers see them (camelCase;
 * knexSnakeCaseMappers converts). See schema/payments.graphql for the GraphQL side.
 */

/** `payment_merchants`: the organization's one merchant at the gateway. */
export interface PaymentMerchant {
  organizationId: string;
  /** The gateway's id of the merchant. */
  gatewayMerchantId: string;
  /** Case-sensitive merchant code; null while provisioning. */
  merchantCode: string | null;
  /** Signing key sealed by `services.secrets`; null while provisioning. */
  signingKeySealed: string | null;
  status: "provisioning" | "active";
  createdAt: Date;
}

/** `payment_gateway_services`: one gateway service of a project. */
export interface PaymentGatewayService {
  id: string;
  organizationId: string;
  projectId: string;
  name: string;
  /** Relay target; null: relay nothing. */
  webhookUrl: string | null;
  createdAt: Date;
}

/**
 * A gateway service's row as compiled reads carry it to the resolvers of fields answered outside the database
 * (payment.reads.ts; `__row`, camelCased): the service's columns and its organization's merchant's, null when
 * the organization has none.
 */
export interface PaymentGatewayServiceRow {
  organizationId: string;
  merchantCode: string | null;
  merchantStatus: PaymentMerchant["status"] | null;
  signingKeySealed: string | null;
  gatewayMerchantId: string | null;
}

/** Outcome of one relay (stored lower case). */
export type RelayOutcome = "delivered" | "failed" | "refused";

/** `payment_relays`: one relay of one verified event to one webhook URL. */
export interface PaymentRelay {
  id: string;
  organizationId: string;
  serviceId: string;
  eventType: string;
  knownEvent: boolean;
  externalReference: string | null;
  targetUrl: string;
  outcome: RelayOutcome;
  /** HTTP status answered, when there was an answer. */
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  createdAt: Date;
}

/** Placeholder shown as the merchant code while the gateway provisions it (spec: may show a placeholder). */
export const PROVISIONING_CODE = "provisioning";

/** Event types the spec lists (spec: Events → Payment gateway events); others are relayed but logged as unknown. */
export const KNOWN_EVENT_TYPES: ReadonlySet<string> = new Set([
  "customer.subscription.created",
  "customer.subscription.updated",
  "customer.subscription.deleted",
  "invoice.payment_succeeded",
  "invoice.payment_failed",
]);
