/**
 * A mutation hook for the dashboard's forms: runs a typed mutation and keeps its error, in words for the form-level
 * alert and by field for the messages under the fields. Inside a `FeedbackScope` starting it clears the scope's
 * other messages, and its error goes when they are cleared (another action, an edit, Cancel).
 */
import type { AnyVariables, CombinedError, TypedDocumentNode } from "@urql/core";
import { useMutation } from "urql";
import { describeError, fieldErrorsOf } from "./errors.ts";
import { useScopedMessage } from "./feedback.tsx";

/**
 * A mutation with its error; `after` runs when it succeeded (e.g. re-read the page). `onForm`: the fields whose
 * refusal the form shows under them (left out of `error`).
 */
export function useAction<Data, Variables extends AnyVariables>(
  doc: TypedDocumentNode<Data, Variables>,
  after: () => void = () => {},
  onForm: readonly string[] = [],
) {
  const [state, run] = useMutation(doc);
  const [failure, setFailure, start] = useScopedMessage<CombinedError>();
  const exec = async (vars: Variables) => {
    start();
    const r = await run(vars);
    if (r.error) setFailure(r.error);
    else after();
    return r;
  };
  return {
    state,
    exec,
    /** The form-level message: the error in words without the fields in `onForm`; null when none. */
    error: describeError(failure, onForm),
    /** The refused fields of the last error, by field name. */
    fields: fieldErrorsOf(failure),
    /** Forgets the error (e.g. on Cancel). */
    reset: () => setFailure(null),
  };
}
