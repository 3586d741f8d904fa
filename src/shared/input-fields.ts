/**
 * Building blocks of input schemas shared by every surface (zod): the wording of a missing or mistyped value, a
 * trimmed single-line text, and an optional field where GraphQL's null and JSON's absence mean the same.
 */
import { z } from "zod";

/** Error option of a zod type: `Required` for a missing value, else `Must be <what>`. */
export const requiredOr = (what: string) => ({
  error: (issue: { input?: unknown }) => (issue.input === undefined ? "Required" : `Must be ${what}`),
});

/** A trimmed, non-empty string of at most `max` characters without control characters. */
export const text = (max: number) =>
  z
    .string(requiredOr("a string"))
    .trim()
    .min(1, "Must not be empty")
    .max(max, `At most ${max} characters`)
    .regex(/^[^\p{Cc}]*$/u, "Must not contain control characters");

/**
 * Invisible format characters (Unicode category Cf: zero-width space, bidirectional overrides such as U+202E, soft
 * hyphen, byte-order mark…) apart from the zero-width non-joiner and joiner (U+200C, U+200D), which Persian, Indic
 * scripts and emoji sequences need.
 */
const INVISIBLE = /(?![\u200C\u200D])\p{Cf}/u;

/**
 * A name people read and tell apart (a project's, an application's, an organization's, a person's, a key's):
 * {@link text}, in Unicode normalization form C (so `café` typed precomposed or decomposed is one name, and names
 * unique in their scope compare as they look), without invisible format characters ({@link INVISIBLE}: a name that
 * shows as another, or as nothing, is refused).
 */
export const nameText = (max: number) =>
  z
    .string(requiredOr("a string"))
    .trim()
    .normalize("NFC")
    .min(1, "Must not be empty")
    .max(max, `At most ${max} characters`)
    .regex(/^[^\p{Cc}]*$/u, "Must not contain control characters")
    .refine((v) => !INVISIBLE.test(v), "Must not contain invisible characters (zero-width or direction marks)")
    // Joiners alone show as nothing (the empty name itself is refused once, above).
    .refine((v) => v === "" || /[^\u200C\u200D]/u.test(v), "Must not be empty");

/**
 * Text of a URL as stored and shown: no whitespace or control characters. The URL parser would drop or
 * percent-encode them, so the address called would not be the one stored (a client percent-encodes them itself).
 */
export const URL_TEXT = /^[^\s\p{Cc}]*$/u;

/** The message of a URL holding whitespace or control characters. */
export const URL_TEXT_MESSAGE = "Must not contain spaces or control characters (percent-encode them)";

/** Optional: null and undefined both mean absent (GraphQL sends null, JSON may omit). */
export const optional = <T extends z.ZodType>(schema: T) => schema.nullish().transform((v) => v ?? undefined);
