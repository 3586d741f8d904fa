/**
 * Fixed parts of the published REST document served at /api/openapi.json: info and the security
 * schemes. Account credentials are an API key as `Authorization: Bearer` or `x-api-key`, or the dashboard's
 * session cookie; inbound callbacks carry their own signature.
 */
import type { DocumentInfo } from "./generate.ts";

/** Version of the published REST document (bumped with any change of a documented path). */
export const PUBLIC_API_VERSION = "1.1.0";

/** `info`, tags and security schemes of /api/openapi.json. */
export const publicDocumentInfo: DocumentInfo = {
  title: "Skiff REST API",
  version: PUBLIC_API_VERSION,
  description:
    "Documented REST paths of Skiff: site import, webhook management (`/api/v1`), the deploy trigger, " +
    "docs-domain theming and inbound callbacks. " +
    "Authenticate with an account API key (`Authorization: Bearer <key>` or `x-api-key: <key>`) or the " +
    "dashboard's session cookie. Errors are JSON bodies with an `error` message. The GraphQL API at /graphql " +
    "covers everything else; the agent API has its own document at /api/agent/openapi.json.",
  defaultSecurity: "account",
  security: {
    account: ["bearerAuth", "apiKeyHeader", "sessionCookie"],
    signature: ["gatewaySignature"],
    license: ["licenseKey"],
    none: [],
  },
  securitySchemes: {
    bearerAuth: { type: "http", scheme: "bearer", description: "Account API key (or user JWT) as a bearer token." },
    apiKeyHeader: { type: "apiKey", in: "header", name: "x-api-key", description: "Account API key." },
    sessionCookie: {
      type: "apiKey",
      in: "cookie",
      name: "skiff.session_token",
      description: "Dashboard session (`__Secure-skiff.session_token` over https).",
    },
    gatewaySignature: {
      type: "apiKey",
      in: "header",
      name: "x-gateway-signature",
      description: "HMAC-SHA256 of the raw body with the merchant's gateway secret (payment gateway callbacks).",
    },
    licenseKey: {
      type: "http",
      scheme: "bearer",
      description: "A Skiff license key (docs-host role: instances report their docs hostnames with it).",
    },
  },
  tags: [
    { name: "site-import", description: "Create a whole site (project, database, application, domain) in one call." },
    { name: "webhooks", description: "Webhook endpoints, deliveries and event ingestion of an organization." },
    { name: "callbacks", description: "Inbound callbacks of external services, authenticated by signature." },
    {
      name: "deployments",
      description: "The deploy trigger URL: an API call or a GitHub/GitLab push webhook queues a deployment.",
    },
    {
      name: "docs-theming",
      description: "Public theme of an organization's docs sites, the docs host's lookup and sync, the loader script.",
    },
    { name: "documents", description: "Machine-readable descriptions." },
  ],
};
