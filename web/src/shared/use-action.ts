/** A mutation hook for the dashboard's forms: runs a typed mutation and keeps its error in words. */
import type { AnyVariables, TypedDocumentNode } from "@urql/core";
import { useState } from "react";
import { useMutation } from "urql";
import { describeError } from "./errors.ts";

/** A mutation with its error in words; `after` runs when it succeeded (e.g. re-read the page). */
export function useAction<Data, Variables extends AnyVariables>(
  doc: TypedDocumentNode<Data, Variables>,
  after: () => void = () => {},
) {
  const [state, run] = useMutation(doc);
  const [error, setError] = useState<string | null>(null);
  const exec = async (vars: Variables) => {
    setError(null);
    const r = await run(vars);
    if (r.error) setError(describeError(r.error));
    else after();
    return r;
  };
  return { state, exec, error };
}
