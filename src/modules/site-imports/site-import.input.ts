/**
 * The stored input of an import (`inputConfig`): sealed with the server secret at rest because it carries the
 * database password and environment variable values; retries re-run it with the real password, while API
 * output shows the password masked.
 */
import type { SecretBox } from "../../db/secrets.ts";
import type { SiteImport } from "./site-import.model.ts";
import type { SiteImportRequest } from "./site-import.schema.ts";

/** What API output shows instead of the database password. */
export const MASKED_PASSWORD = "********";

/** Seals a validated request for `site_imports.input_encrypted`. */
export function sealInput(secrets: SecretBox, input: SiteImportRequest): string {
  return secrets.encrypt(JSON.stringify(input));
}

const opened = new WeakMap<SiteImport, SiteImportRequest>();

/**
 * The request stored on `record` (decrypted once per record object). It was validated and normalised before
 * it was sealed, and the seal (AES-GCM) proves it is unchanged, so it is not parsed again.
 * @throws Error when the stored value was sealed with another secret or altered.
 */
export function storedInput(secrets: SecretBox, record: SiteImport): SiteImportRequest {
  let input = opened.get(record);
  if (!input) {
    input = JSON.parse(secrets.decrypt(record.inputEncrypted)) as SiteImportRequest;
    opened.set(record, input);
  }
  return input;
}

/** The request as API output shows it (spec: Import record `inputConfig`): `database.password` masked. */
export function maskedInputConfig(input: SiteImportRequest): Record<string, unknown> {
  if (!input.database) return { ...input };
  return { ...input, database: { ...input.database, password: MASKED_PASSWORD } };
}
