/** Turns a urql/GraphQL error into words for the page (with the field errors of `BAD_USER_INPUT`). */
import type { CombinedError } from "@urql/core";

/** A readable message of `error`, e.g. `Name: must not be empty` or the server's message. */
export function describeError(error: CombinedError | undefined | null): string | null {
  if (!error) return null;
  if (error.networkError) return `The server could not be reached (${error.networkError.message}).`;
  const first = error.graphQLErrors[0];
  if (!first) return error.message;
  const fieldErrors = first.extensions?.fieldErrors as Record<string, string[]> | undefined;
  const parts = fieldErrors ? Object.entries(fieldErrors).map(([field, msgs]) => `${field}: ${msgs.join(", ")}`) : [];
  const formErrors = (first.extensions?.formErrors as string[] | undefined) ?? [];
  const details = [...formErrors, ...parts];
  return details.length ? `${first.message} (${details.join("; ")})` : first.message;
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
  const fieldErrors = error?.graphQLErrors[0]?.extensions?.fieldErrors as Record<string, string[]> | undefined;
  return fieldErrors ?? {};
}
