/**
 * The error body of the internal procedure surface (`POST /api/<object>.<action>`, spec: Procedure interface):
 * status by `extensions.code` (400, 401, 403, 404, 409, 429, 500) with
 * `{ error: { message, code, fieldErrors?, formErrors?, idempotencyKey?, errorId? } }` (`idempotencyKey`: the key of
 * an IDEMPOTENCY_KEY_REUSED refusal, as GraphQL's `extensions.idempotencyKey`).
 */
import type { RestError, RestResponse } from "./rest-route.ts";

/** A procedure's error answer for the first GraphQL `error` and the `status` mapped from its code. */
export function procedureError(error: RestError, status: number): RestResponse {
  const { code, fieldErrors, formErrors, idempotencyKey, errorId } = (error.extensions ?? {}) as Record<
    string,
    unknown
  >;
  return {
    status,
    body: {
      error: {
        message: error.message,
        code: code ?? "INTERNAL_SERVER_ERROR",
        ...(fieldErrors !== undefined && { fieldErrors, formErrors }),
        ...(idempotencyKey !== undefined && { idempotencyKey }),
        ...(errorId !== undefined && { errorId }),
      },
    },
  };
}
