/**
 * Secrets and signatures of webhook deliveries (spec: Delivery to the receiver, Receiver rules; Standard
 * Webhooks for the `webhook-*` headers).
 */
import { createHmac, createSecretKey, type KeyObject, randomBytes } from "node:crypto";

/** Prefix of endpoint secrets. */
export const SECRET_PREFIX = "whsec_";

/**
 * A new endpoint secret: `whsec_` + 32 random bytes in standard base64 (44 characters, `=`-padded), the form
 * Standard Webhooks libraries decode (`new Webhook(secret)`).
 */
export function generateWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString("base64");
}

/** The two HMAC keys of one endpoint secret, made once (a key object signs faster than raw bytes each time). */
export interface SigningKeys {
  /** The whole secret string, UTF-8 (`X-Webhook-Signature`). */
  whole: KeyObject;
  /** The bytes after `whsec_`, base64-decoded (Standard Webhooks `webhook-signature`). */
  standard: KeyObject;
}

/** The {@link SigningKeys} of `secret`. */
export function signingKeys(secret: string): SigningKeys {
  return {
    whole: createSecretKey(Buffer.from(secret, "utf8")),
    standard: createSecretKey(Buffer.from(secret.slice(SECRET_PREFIX.length), "base64")),
  };
}

/**
 * `X-Webhook-Signature`: `sha256=` + lowercase hex HMAC-SHA256 of the raw `body` keyed with the whole secret
 * string (as the receiver holds it); `secret` is that string or its {@link SigningKeys}.
 */
export function webhookSignature(secret: string | SigningKeys, body: string | Buffer): string {
  const key = typeof secret === "string" ? secret : secret.whole;
  return `sha256=${createHmac("sha256", key).update(body).digest("hex")}`;
}

/**
 * Standard Webhooks `webhook-signature`: `v1,` + base64 HMAC-SHA256 of `<id>.<timestamp>.<body>`, keyed with the
 * bytes of the secret after `whsec_` (base64-decoded; Node's decoder also takes the base64url alphabet, so older
 * secrets generated in base64url keep their key). `timestampSeconds` is the `webhook-timestamp` header; `secret` is
 * the secret string or its {@link SigningKeys}.
 */
export function standardWebhookSignature(
  secret: string | SigningKeys,
  id: string,
  timestampSeconds: number,
  body: string,
): string {
  const key = typeof secret === "string" ? signingKeys(secret).standard : secret.standard;
  return `v1,${createHmac("sha256", key).update(`${id}.${timestampSeconds}.${body}`).digest("base64")}`;
}

/** What decrypts a stored secret (the instance's secret box, src/db/secrets.ts). */
interface Decrypter {
  decrypt(sealed: string): string;
}

/** Endpoint keys kept per secret box (the oldest made goes first beyond this). */
const KEPT_KEYS = 1000;
const keysByBox = new WeakMap<Decrypter, Map<string, SigningKeys>>();

/**
 * The {@link SigningKeys} of the endpoint secret stored as `sealed` (decrypted by `box`), made once and kept for
 * the next attempts: a rotated secret is stored anew, so it is a new entry.
 * @throws what `box.decrypt` throws for a value it did not seal.
 */
export function storedSecretKeys(box: Decrypter, sealed: string): SigningKeys {
  let kept = keysByBox.get(box);
  if (!kept) {
    kept = new Map();
    keysByBox.set(box, kept);
  }
  let keys = kept.get(sealed);
  if (!keys) {
    keys = signingKeys(box.decrypt(sealed));
    if (kept.size >= KEPT_KEYS) kept.delete(kept.keys().next().value!);
    kept.set(sealed, keys);
  }
  return keys;
}
