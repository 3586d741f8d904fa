/**
 * Idempotency keys of import requests (docs/site-imports.md, "Idempotent requests"; the `Idempotency-Key`
 * convention of the IETF httpapi draft): per organization, a key names the first import made with it for
 * SKIFF_IDEMPOTENCY_TTL_HOURS. A request repeating the key with the same validated request gets that import; with
 * another request, IDEMPOTENCY_KEY_REUSED. Keys live in `site_import_idempotency_keys` (primary key organization +
 * key), claimed in the transaction that inserts the record: of concurrent requests with one key, one inserts and
 * the others wait on the index, then read its row — one record and one run, on any number of instances.
 */
import type { Knex } from "knex";
import { z } from "zod";
import type { SecretBox } from "../../db/secrets.ts";
import { IdempotencyKeyReusedError } from "../../shared/errors.ts";
import { parseInput } from "../../shared/validate.ts";
import type { SiteImportRequest } from "./site-import.schema.ts";

/** An idempotency key: 1 to 255 visible ASCII characters (a UUID is the usual choice). */
const idempotencyKeySchema = z
  .string("Must be a string")
  .min(1, "Must not be empty")
  .max(255, "Must be at most 255 characters")
  .regex(/^[\x21-\x7e]+$/, "Must be visible ASCII characters (no spaces), e.g. a UUID");

/**
 * The key of a request, or null when none was sent (`undefined`, `null`); `field` names it in errors (the argument
 * `idempotencyKey`, or the header `Idempotency-Key`).
 * @throws BadUserInputError with `fieldErrors[field]` when it is not a valid key.
 */
export function parseIdempotencyKey(raw: unknown, field = "idempotencyKey"): string | null {
  if (raw === undefined || raw === null) return null;
  return parseInput(z.object({ [field]: idempotencyKeySchema }), { [field]: raw }, "Invalid idempotency key")[
    field
  ] as string;
}

/** JSON with object keys sorted at every level: equal requests give equal text whatever their key order. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/** The keyed digest of a validated request that a key is bound to (the request itself, password included, is not stored twice). */
export function requestDigest(secrets: SecretBox, input: SiteImportRequest): string {
  return secrets.digest(canonicalJson(input));
}

/** The error of `key`, bound to import `siteImportId` of another request. */
function reusedKey(key: string, siteImportId: string): IdempotencyKeyReusedError {
  return new IdempotencyKeyReusedError(
    `Idempotency key "${key}" was already used with a different request (import ${siteImportId}); send the same request to get that import, or use a new key`,
    key,
  );
}

/** What {@link claimIdempotencyKey} found. */
export type KeyClaim = { claimed: true } | { claimed: false; siteImportId: string };

/**
 * Binds `key` of `organizationId` to `siteImportId` (to be inserted in the same transaction `trx`) for `ttlHours`,
 * unless a live binding exists: an expired one is taken over. A concurrent transaction holding the key makes this
 * wait for its outcome.
 * @returns `{ claimed: true }`, or the import the key names when it was bound before to the same request.
 * @throws IdempotencyKeyReusedError when the key is bound to another request.
 */
export async function claimIdempotencyKey(
  trx: Knex.Transaction,
  claim: { organizationId: string; key: string; digest: string; siteImportId: string; ttlHours: number },
): Promise<KeyClaim> {
  const { rows } = await trx.raw<{ rows: unknown[] }>(
    `insert into site_import_idempotency_keys (organization_id, key, request_digest, site_import_id, expires_at)
     values (:organizationId, :key, :digest, :siteImportId, now() + make_interval(hours => :ttlHours))
     on conflict (organization_id, key) do update set request_digest = excluded.request_digest,
       site_import_id = excluded.site_import_id, created_at = now(), expires_at = excluded.expires_at
       where site_import_idempotency_keys.expires_at <= now()
     returning 1`,
    claim,
  );
  if (rows.length > 0) return { claimed: true };
  // Through the snake-case mappers of src/db/knex.ts: camelCase names.
  const existing = await trx("site_import_idempotency_keys")
    .where({ organizationId: claim.organizationId, key: claim.key })
    .first<{ requestDigest: string; siteImportId: string } | undefined>("requestDigest", "siteImportId");
  // Deleted between the two statements (its import was deleted): claim it again.
  if (!existing) return claimIdempotencyKey(trx, claim);
  if (existing.requestDigest !== claim.digest) {
    throw reusedKey(claim.key, existing.siteImportId);
  }
  return { claimed: false, siteImportId: existing.siteImportId };
}

/**
 * The import a live `key` of `organizationId` names, when it was bound to the request of `digest`; null when the key
 * is unused or expired.
 * @throws IdempotencyKeyReusedError when the key is bound to another request.
 */
export async function importOfKey(
  knex: Knex,
  lookup: { organizationId: string; key: string; digest: string },
): Promise<string | null> {
  const row = await knex("site_import_idempotency_keys")
    .where({ organizationId: lookup.organizationId, key: lookup.key })
    .whereRaw("expires_at > now()")
    .first<{ requestDigest: string; siteImportId: string } | undefined>("requestDigest", "siteImportId");
  if (!row) return null;
  if (row.requestDigest !== lookup.digest) throw reusedKey(lookup.key, row.siteImportId);
  return row.siteImportId;
}

/** Deletes the expired keys of every organization. @returns how many. */
export async function pruneIdempotencyKeys(knex: Knex): Promise<number> {
  return knex("site_import_idempotency_keys").whereRaw("expires_at <= now()").delete();
}
