/**
 * Helpers of the webhook tests: REST calls with an API key, an organization's integer id, endpoints inserted
 * directly (no rate limit), and the receiver's signature check exactly as the spec's receiver rules say.
 */
import { createHmac, randomBytes, randomUUID, timingSafeEqual } from "node:crypto";
import type { Knex } from "knex";
import { createSecretBox } from "../../src/db/secrets.ts";
import { TEST_SECRET } from "../helpers/seed.ts";

const box = createSecretBox(TEST_SECRET);

/** A REST answer. */
export interface RestAnswer {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: test bodies are inspected field by field.
  body: any;
}

/** Calls `method path` on `base` with `apiKey` as bearer and `body` as JSON. */
export async function rest(
  base: string,
  method: string,
  path: string,
  apiKey: string | null,
  body?: unknown,
): Promise<RestAnswer> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

/** The integer id (`database_id`) of organization `organizationId`. */
export async function orgNumber(knex: Knex, organizationId: string): Promise<number> {
  return (await knex("organizations").where({ id: organizationId }).first("database_id")).databaseId;
}

/** Inserts an endpoint of `organizationId` (no URL check, no rate limit). @returns its uuid and secret. */
export async function insertWebhook(
  knex: Knex,
  organizationId: string,
  url: string,
  events: string[] = ["course_completed"],
  isActive = true,
): Promise<{ id: string; secret: string }> {
  const id = `webhook_${randomUUID()}`;
  const secret = `whsec_${randomBytes(32).toString("base64url")}`;
  await knex("webhook_endpoints").insert({
    id,
    organization_id: organizationId,
    url,
    events,
    secret_encrypted: box.encrypt(secret),
    is_active: isActive,
  });
  return { id, secret };
}

/**
 * The receiver's check (spec Receiver rules 1–2): HMAC-SHA256 over the exact raw bytes keyed with the secret,
 * `sha256=` + lowercase hex, compared in constant time after checking the lengths.
 */
export function receiverAccepts(secret: string, rawBody: Buffer, header: string | string[] | undefined): boolean {
  if (typeof header !== "string") return false;
  const expected = Buffer.from(`sha256=${createHmac("sha256", secret).update(rawBody).digest("hex")}`);
  const given = Buffer.from(header);
  if (given.length !== expected.length) return false;
  return timingSafeEqual(given, expected);
}

/** A `course_completed` data object (the spec's shape). */
export const COURSE_COMPLETED = {
  user: { user_uuid: "user_1", email: "ada@example.test", username: "ada" },
  course: { course_uuid: "course_1", name: "Compilers" },
};
