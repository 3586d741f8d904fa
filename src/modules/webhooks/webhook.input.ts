/**
 * Input rules of the webhook management API (spec "Errors"): `url` absolute `https://`, at most 2048
 * characters (its host is checked by the outbound guard separately); `events` non-empty, each in the catalogue
 * (unknown names listed as `echoedList` repeats caller-given values: the first 5, each cut); unknown fields refused.
 * REST bodies are snake_case (`is_active`), GraphQL inputs camelCase: both are checked here.
 */
import { z } from "zod";
import { isDateTime } from "../../shared/date-time.ts";
import { echoedList } from "../../shared/errors.ts";
import { webhookEvent } from "../../shared/events/catalogue.ts";
import { requiredOr, URL_TEXT, URL_TEXT_MESSAGE } from "../../shared/input-fields.ts";

/**
 * An endpoint URL: absolute `https://`, at most 2048 characters, without whitespace or control characters (the URL
 * parser would drop or encode them, so the address called would not be the one stored and shown).
 */
const url = z
  .string(requiredOr("an absolute https:// URL"))
  .max(2048, "At most 2048 characters")
  .regex(URL_TEXT, URL_TEXT_MESSAGE)
  .refine((v) => URL.canParse(v) && new URL(v).protocol === "https:", "Must be an absolute https:// URL");

const events = z
  .array(z.string(), { error: "Required: an array of event names" })
  .min(1, "Subscribe to at least one event")
  .max(100, "At most 100 events")
  .superRefine((names, ctx) => {
    const unknown = [...new Set(names.filter((n) => !webhookEvent(n)))];
    if (unknown.length) ctx.addIssue({ code: "custom", message: `Unknown events: ${echoedList(unknown)}` });
  })
  .transform((names) => [...new Set(names)]);

const description = z.string().max(500, "At most 500 characters").nullable();

/** REST body of create: `{ url, events, description?, is_active? }`. */
export const createBody = z.strictObject({
  url,
  events,
  description: description.optional(),
  is_active: z.boolean().optional(),
});

/** REST body of update: any of `url`, `events`, `is_active`, `description`. */
export const updateBody = z.strictObject({
  url: url.optional(),
  events: events.optional(),
  description: description.optional(),
  is_active: z.boolean().optional(),
});

/** REST body of ingestion: `{ event, data }`. */
export const publishBody = z.strictObject({
  event: z.string({ error: "Required" }).min(1, "Required"),
  data: z.record(z.string(), z.unknown(), { error: "Required: an object" }),
});

/** An RFC 3339 date-time with its offset, as the GraphQL `DateTime` scalar takes it. */
const dateTime = z
  .string({ error: "Required: an RFC 3339 date-time" })
  .refine(isDateTime, "Must be an RFC 3339 date-time with a time zone offset (e.g. 2026-01-31T12:00:00Z)");

/**
 * REST body of the actions that take none (regenerate-secret, test, redeliver): absent or `{}`; a field is an
 * unknown body field (400), as on every other path.
 */
export const emptyBody = z.strictObject({});

/** REST body of recovery: `{ since, until? }` (RFC 3339 date-times; `until` default: now). */
export const recoverBody = z.strictObject({
  since: dateTime.meta({ format: "date-time", description: "Start of the window (inclusive)." }),
  until: dateTime
    .optional()
    .meta({ format: "date-time", description: "End of the window (exclusive); default: the call's moment." }),
});

/** Validated create input (service form). */
export const createInput = z.strictObject({
  url,
  events,
  description: description.optional(),
  isActive: z.boolean().nullable().optional(),
});

/** Validated update input (service form). */
export const updateInput = z.strictObject({
  url: url.nullable().optional(),
  events: events.nullable().optional(),
  description: description.optional(),
  isActive: z.boolean().nullable().optional(),
});

/** Create input. */
export type CreateWebhookInput = z.input<typeof createInput>;
/** Update input. */
export type UpdateWebhookInput = z.input<typeof updateInput>;
