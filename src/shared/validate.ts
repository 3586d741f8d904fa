/**
 * Input validation with zod for every surface: one conversion of zod issues into BAD_USER_INPUT, with
 * `fieldErrors` keyed by dot-separated path (e.g. `source.repo`) and `formErrors` for the input as a whole.
 */
import type { z } from "zod";
import { BadUserInputError, echoed } from "./errors.ts";

/** Converts zod issues to a BadUserInputError (`fieldErrors` by dot-separated path, root issues in `formErrors`). */
export function toBadUserInput(error: z.ZodError, message = "Invalid input"): BadUserInputError {
  // A Map: keys are the caller's own (`toString`, `__proto__`, …), never an object's inherited members.
  const byField = new Map<string, string[]>();
  const formErrors: string[] = [];
  for (const issue of error.issues) {
    const keys = issue.code === "unrecognized_keys" ? issue.keys.map((k) => [...issue.path, k]) : [issue.path];
    for (const path of keys) {
      const msg = issue.code === "unrecognized_keys" ? "Unknown field" : issue.message;
      if (path.length === 0) formErrors.push(msg);
      else {
        const key = path.map(String).join(".");
        byField.set(key, [...(byField.get(key) ?? []), msg]);
      }
    }
  }
  // Object.fromEntries defines own properties, `__proto__` included.
  const fieldErrors: Record<string, string[]> = Object.fromEntries(byField);
  const first = [...byField][0];
  // A field's name may be the caller's own (an unknown field): repeated as `echoed` repeats caller-given values.
  const detail = first ? `${echoed(first[0])}: ${first[1][0]}` : formErrors[0];
  // zod's own root messages already begin "Invalid input: …": said once.
  const text = !detail ? message : detail.startsWith(`${message}:`) ? detail : `${message}: ${detail}`;
  return new BadUserInputError(text, { fieldErrors, formErrors });
}

/**
 * Parses `raw` with `schema`.
 * @throws BadUserInputError with `fieldErrors`/`formErrors` when invalid.
 */
export function parseInput<S extends z.ZodType>(schema: S, raw: unknown, message?: string): z.output<S> {
  const result = schema.safeParse(raw);
  if (!result.success) throw toBadUserInput(result.error, message);
  return result.data;
}
