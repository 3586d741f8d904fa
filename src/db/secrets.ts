/**
 * At-rest encryption of secrets (database passwords, environment variable values, private keys):
 * AES-256-GCM, key = SHA-256 of SKIFF_SECRET; keyed digests (HMAC-SHA-256) with a key derived from it apart. Stored form: `v1.<iv b64url>.<tag b64url>.<ciphertext b64url>`.
 */
import { createCipheriv, createDecipheriv, createHash, createHmac, createSecretKey, randomBytes } from "node:crypto";

/** Encrypts and decrypts short secrets with one key. */
export interface SecretBox {
  encrypt(plain: string): string;
  /** @throws Error when the value was not produced with this key or was altered. */
  decrypt(sealed: string): string;
  /** A keyed digest (HMAC-SHA-256, hex) of `text`: equal texts give equal digests; the text cannot be recovered. */
  digest(text: string): string;
}

/** Builds a {@link SecretBox} from the server secret. */
export function createSecretBox(secret: string): SecretBox {
  // One KeyObject for every call: cheaper than handing createCipheriv the raw bytes each time.
  const key = createSecretKey(createHash("sha256").update(secret).digest());
  // A key of its own for digests (never the encryption key used for another purpose).
  const digestKey = createSecretKey(createHash("sha256").update(`digest:${secret}`).digest());
  return {
    digest(text) {
      return createHmac("sha256", digestKey).update(text).digest("hex");
    },
    encrypt(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", key, iv);
      const data = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
      return ["v1", iv, cipher.getAuthTag(), data]
        .map((p) => (typeof p === "string" ? p : p.toString("base64url")))
        .join(".");
    },
    decrypt(sealed) {
      const [version, iv, tag, data] = sealed.split(".");
      if (version !== "v1" || iv === undefined || tag === undefined || data === undefined) {
        throw new Error("Unrecognised secret format");
      }
      const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
      decipher.setAuthTag(Buffer.from(tag, "base64url"));
      return Buffer.concat([decipher.update(Buffer.from(data, "base64url")), decipher.final()]).toString("utf8");
    },
  };
}
