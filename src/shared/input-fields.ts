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
 * Characters that show as nothing, so that a name holding them looks like another or like no name at all:
 * - invisible format characters (Unicode category Cf: zero-width space, bidirectional overrides and isolates such as
 *   U+202E and U+2066, soft hyphen, byte-order mark…) apart from the zero-width non-joiner and joiner (U+200C,
 *   U+200D), which Persian, Indic scripts and emoji sequences need;
 * - the fillers and blanks that render as empty space: U+034F combining grapheme joiner, U+115F Hangul choseong
 *   filler, U+1160 Hangul jungseong filler, U+17B4 and U+17B5 Khmer inherent vowels, U+2800 braille pattern blank,
 *   U+3164 Hangul filler, U+FFA0 halfwidth Hangul filler.
 * Variation selectors (U+FE00–U+FE0F, U+E0100–U+E01EF) stay: emoji and ideographs need them.
 */
const INVISIBLE = /(?![\u200C\u200D])\p{Cf}|[\u034F\u115F\u1160\u17B4\u17B5\u2800\u3164\uFFA0]/u;

/**
 * A text of nothing but characters that only modify a neighbour: the joiners (U+200C, U+200D) and the variation
 * selectors (U+FE00–U+FE0F, U+E0100–U+E01EF, Mongolian U+180B–U+180D and U+180F). Alone they show as nothing.
 */
const MODIFIERS_ONLY = /^(?:\u200C|\u200D|[\uFE00-\uFE0F\u180B-\u180D\u180F\u{E0100}-\u{E01EF}])+$/u;

/** Line and paragraph separators (Unicode categories Zl and Zp: U+2028, U+2029), which break a line as a newline does. */
const SEPARATOR = /[\p{Zl}\p{Zp}]/u;

/**
 * A name people read and tell apart (a project's, an application's, an organization's, a person's, a key's):
 * {@link text}, in Unicode normalization form C (so `café` typed precomposed or decomposed is one name, and names
 * unique in their scope compare as they look), one line (no control characters, no line or paragraph separators:
 * {@link SEPARATOR}), without characters that show as nothing ({@link INVISIBLE}: a name that shows as another, or
 * as nothing, is refused).
 */
export const nameText = (max: number) =>
  z
    .string(requiredOr("a string"))
    .trim()
    .normalize("NFC")
    .min(1, "Must not be empty")
    .max(max, `At most ${max} characters`)
    .regex(/^[^\p{Cc}]*$/u, "Must not contain control characters")
    .refine((v) => !SEPARATOR.test(v), "Must not contain line or paragraph separators (a name is one line)")
    .refine(
      (v) => !INVISIBLE.test(v),
      "Must not contain invisible characters (zero-width or direction marks, blank fillers)",
    )
    // Joiners and variation selectors alone show as nothing (the empty name itself is refused once, above).
    .refine((v) => v === "" || MODIFIERS_ONLY.test(v) === false, "Must not be empty");

/**
 * Text of a URL as stored and shown: no whitespace or control characters. The URL parser would drop or
 * percent-encode them, so the address called would not be the one stored (a client percent-encodes them itself).
 */
export const URL_TEXT = /^[^\s\p{Cc}]*$/u;

/** The message of a URL holding whitespace or control characters. */
export const URL_TEXT_MESSAGE = "Must not contain spaces or control characters (percent-encode them)";

/** Optional: null and undefined both mean absent (GraphQL sends null, JSON may omit). */
export const optional = <T extends z.ZodType>(schema: T) => schema.nullish().transform((v) => v ?? undefined);
