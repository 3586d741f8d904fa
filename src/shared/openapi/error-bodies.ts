/**
 * Error bodies of the published REST paths (site import, webhook management; spec: Errors), as zod schemas for
 * the generated documents: 400 `{ error, details: { fieldErrors, formErrors } }`; 401, 404, 409 `{ error }`;
 * 403 `{ error, plan_feature? }`; 429 `{ error }` with `Retry-After`; 500 `{ error, errorId }`.
 */
import { z } from "zod";
import type { ResponseDoc } from "./route-doc.ts";

/** `{ error }`, plus `errorId` (the log line) on a masked 500. */
export const ErrorBody = z
  .looseObject({ error: z.string(), errorId: z.string().optional() })
  .meta({ id: "Error", description: "What went wrong; `errorId` names the server log line of a 500." });

/** 400: the message and the invalid fields. */
export const ValidationErrorBody = z
  .looseObject({
    error: z.string(),
    details: z.looseObject({
      fieldErrors: z.record(z.string(), z.array(z.string())),
      formErrors: z.array(z.string()),
    }),
  })
  .meta({ id: "ValidationError", description: "Invalid input: messages by field (`fieldErrors`) and overall." });

/** 403: `plan_feature` names the plan feature missing (plan gate), absent for a role refusal. */
export const ForbiddenBody = z
  .looseObject({ error: z.string(), plan_feature: z.string().optional() })
  .meta({ id: "Forbidden", description: "The caller's role or plan does not allow this." });

const ERRORS: Record<string, ResponseDoc> = {
  "400": { description: "Invalid input.", schema: ValidationErrorBody },
  "401": { description: "Missing or invalid credentials.", schema: ErrorBody },
  "403": { description: "Not allowed for the caller's role or plan.", schema: ForbiddenBody },
  "404": { description: "No such resource, or not visible to the caller.", schema: ErrorBody },
  "409": { description: "Conflicts with the current state.", schema: ErrorBody },
  "429": { description: "Rate limited.", schema: ErrorBody, headers: { "Retry-After": "Seconds to wait." } },
  "500": { description: "Internal error (masked).", schema: ErrorBody },
};

/** A refusal before any route runs: `{ error, code, details: { fieldErrors: {}, formErrors: [error] } }`. */
const RefusalBody = ValidationErrorBody.meta({
  id: "Refusal",
  description: "The request refused before its route ran: `code` and the message, in the invalid-input shape.",
});

/** The responses of a body refused before its route runs (src/shared/openapi/generate.ts adds them). */
export function bodyRefusals(): Record<string, ResponseDoc> {
  return {
    "400": { description: "The body is not well-formed JSON (or not UTF-8, or nests too deep).", schema: RefusalBody },
    "413": { description: "The body is larger than the route accepts.", schema: RefusalBody },
    "415": {
      description: "A media type, charset or Content-Encoding the route does not read (JSON in UTF-8, identity).",
      schema: RefusalBody,
    },
  };
}

/** The documented error responses for `statuses`, e.g. `errorResponses(400, 401, 404, 500)`. */
export function errorResponses(...statuses: Array<keyof typeof ERRORS | number>): Record<string, ResponseDoc> {
  return Object.fromEntries(
    statuses.map((s) => {
      const doc = ERRORS[String(s)];
      if (!doc) throw new Error(`No documented error body for ${s}`);
      return [String(s), doc];
    }),
  );
}
