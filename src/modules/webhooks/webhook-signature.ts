/**
 * Secrets and signatures of webhook deliveries (spec: Delivery to the receiver, Receiver rules; Standard
 * Webhooks for the `webhook-*` headers).
 */
import { createHmac, randomBytes } from "node:crypto";

/** Prefix of endpoint secrets. */
export const SECRET_PREFIX = "whsec_";

/**
 * A new endpoint secret: `whsec_` + 32 random bytes in standard base64 (44 characters, `=`-padded), the form
 * Standard Webhooks libraries decode (`new Webhook(secret)`).
 */
export function generateWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString("base64");
}

/**
 * `X-Webhook-Signature`: `sha256=` + lowercase hex HMAC-SHA256 of the raw `body` keyed with the whole secret
 * string (as the receiver holds it).
 */
export function webhookSignature(secret: string, body: string | Buffer): string {
  return `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;
}

/**
 * Standard Webhooks `webhook-signature`: `v1,` + base64 HMAC-SHA256 of `<id>.<timestamp>.<body>`, keyed with the
 * bytes of the secret after `whsec_` (base64-decoded; Node's decoder also takes the base64url alphabet, so older
 * secrets generated in base64url keep their key). `timestampSeconds` is the `webhook-timestamp` header.
 */
export function standardWebhookSignature(secret: string, id: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.slice(SECRET_PREFIX.length), "base64");
  return `v1,${createHmac("sha256", key).update(`${id}.${timestampSeconds}.${body}`).digest("base64")}`;
}
