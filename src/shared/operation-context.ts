/**
 * The operation a context belongs to. A resolver may run its work with a copy of the operation's context (the audited
 * mutation's, with another database handle); what is kept per operation — the time spent waiting outside the
 * execution limit (execution-waits.ts), the errors compiled reads index from their JSON and their re-read loaders
 * (src/reads/resolvers.ts) — is kept for the operation's own context, whichever of the two asks.
 */

/** Copies made from an operation's context (see {@link deriveContext}) → that context. */
const operationContexts = new WeakMap<object, object>();

/** Records `copy` as made from `original` for one resolver: it belongs to `original`'s operation. */
export function deriveContext(copy: object, original: object): void {
  operationContexts.set(copy, operationContextOf(original));
}

/** The operation's own context of `context`: itself, unless it is a copy made by {@link deriveContext}. */
export function operationContextOf(context: object): object {
  return operationContexts.get(context) ?? context;
}
