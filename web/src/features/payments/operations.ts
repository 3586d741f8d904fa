/**
 * The GraphQL documents of the payment gateway panel (schema/payments.graphql), typed by the codegen client preset.
 * The signing key is read by its own query, only when the person asks to reveal it.
 */
import { graphql } from "../../gql/index.ts";

export type {
  PaymentRelayRowFragment as PaymentRelayRow,
  PaymentServiceRowFragment as PaymentServiceRow,
} from "../../gql/graphql.ts";

export const PAYMENT_SERVICE_ROW = graphql(`
  fragment PaymentServiceRow on PaymentGatewayService {
    id name webhookUrl createdAt merchantCode merchantStatus checkoutUrl
    paymentMethods { id label kind enabled }
  }
`);

export const PAYMENT_RELAY_ROW = graphql(`
  fragment PaymentRelayRow on PaymentRelay {
    id eventType knownEvent externalReference targetUrl outcome statusCode error durationMs createdAt
  }
`);

/** The project and its services (without the signing key). */
export const PROJECT_PAYMENTS = graphql(`
  query ProjectPayments($projectId: ID!) {
    project(id: $projectId) {
      id name
      paymentGatewayServices { ...PaymentServiceRow }
    }
  }
`);

/** The relay log of the project's services, newest first. */
export const PAYMENT_RELAYS = graphql(`
  query PaymentRelays($projectId: ID!, $first: Int!) {
    project(id: $projectId) {
      id
      paymentGatewayServices { id relays(first: $first) { ...PaymentRelayRow } }
    }
  }
`);

/** The signing keys (owners and admins; null for members and while provisioning). */
export const PAYMENT_SIGNING_KEYS = graphql(`
  query PaymentSigningKeys($projectId: ID!) {
    project(id: $projectId) { id paymentGatewayServices { id signingKey } }
  }
`);

export const CREATE_PAYMENT_SERVICE = graphql(`
  mutation CreatePaymentService($projectId: ID!, $name: String!, $webhookUrl: String) {
    createPaymentGatewayService(projectId: $projectId, name: $name, webhookUrl: $webhookUrl) { ...PaymentServiceRow }
  }
`);
export const UPDATE_PAYMENT_SERVICE = graphql(`
  mutation UpdatePaymentService($id: ID!, $name: String, $webhookUrl: String) {
    updatePaymentGatewayService(id: $id, name: $name, webhookUrl: $webhookUrl) { ...PaymentServiceRow }
  }
`);
export const DELETE_PAYMENT_SERVICE = graphql(`
  mutation DeletePaymentService($id: ID!) {
    deletePaymentGatewayService(id: $id)
  }
`);
export const SET_PAYMENT_METHOD = graphql(`
  mutation SetPaymentMethod($serviceId: ID!, $method: String!, $enabled: Boolean!) {
    setPaymentMethodEnabled(serviceId: $serviceId, method: $method, enabled: $enabled) { id label kind enabled }
  }
`);
