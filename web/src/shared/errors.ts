/**
 * Turns a urql/GraphQL error into words for the page. Each problem is said once: a refused field's message goes under
 * that field (`fieldErrorsOf`), the form-level message only says what has no field on the form (`describeError`).
 */
import type { CombinedError } from "@urql/core";

/** The `fieldErrors` and `formErrors` of a `BAD_USER_INPUT` error (empty for other errors). */
function detailsOf(error: CombinedError) {
  const ext = error.graphQLErrors[0]?.extensions ?? {};
  return {
    fieldErrors: (ext.fieldErrors as Record<string, string[]> | undefined) ?? {},
    formErrors: (ext.formErrors as string[] | undefined) ?? [],
  };
}

/**
 * A readable message of `error` for the form-level alert, or null when there is nothing to say there. `onForm`: the
 * fields the form shows their own message under (those are left out). A validation error's message already states
 * its first problem (`Invalid input: name: must not be empty`); the other problems are added once, never repeated.
 */
export function describeError(error: CombinedError | undefined | null, onForm: readonly string[] = []): string | null {
  if (!error) return null;
  if (error.networkError) {
    // A WebSocket's close event, not an Error, carries no message.
    const why = error.networkError.message;
    return why ? `The server could not be reached (${why}).` : "The server could not be reached.";
  }
  const first = error.graphQLErrors[0];
  if (!first) return error.message;
  const { fieldErrors, formErrors } = detailsOf(error);
  const fields = Object.entries(fieldErrors);
  if (fields.length === 0 && formErrors.length === 0) return first.message;
  const elsewhere = fields.filter(([field]) => !onForm.includes(field));
  const problems = [...formErrors, ...elsewhere.map(([field, msgs]) => `${field}: ${msgs.join(", ")}`)];
  if (problems.length === 0) return null;
  if (elsewhere.length === fields.length) {
    // Nothing is under a field: the message, with what it does not say yet.
    const said = (m: string) => first.message.toLowerCase().includes(m.toLowerCase());
    const unsaid = [
      ...formErrors.filter((m) => !said(m)),
      ...elsewhere.filter(([, msgs]) => !msgs.every(said)).map(([field, msgs]) => `${field}: ${msgs.join(", ")}`),
    ];
    return unsaid.length ? `${first.message} (${unsaid.join("; ")})` : first.message;
  }
  // Some problems are under their fields: the message's lead ("Invalid application") and only the others.
  const colon = first.message.indexOf(": ");
  const lead = colon > 0 ? first.message.slice(0, colon) : "Refused";
  return `${lead}: ${problems.join("; ")}`;
}

/** The `extensions.code` (and `reason`) of the first GraphQL error. */
export function errorCode(error: CombinedError | undefined | null): { code?: string; reason?: string } {
  const ext = error?.graphQLErrors[0]?.extensions ?? {};
  return { code: ext.code as string | undefined, reason: ext.reason as string | undefined };
}

/**
 * The `fieldErrors` of a `BAD_USER_INPUT` error, by field name (e.g. `{ port: ["must be 1 to 65535"] }`, or
 * `line.4` for a `.env` paste); empty for other errors.
 */
export function fieldErrorsOf(error: CombinedError | undefined | null): Record<string, string[]> {
  return error ? detailsOf(error).fieldErrors : {};
}

/** The words of a thrown value for an alert: an Error's message alone (never "Error: …", the alert says that). */
export function messageOf(thrown: unknown): string {
  return thrown instanceof Error ? thrown.message : String(thrown);
}
