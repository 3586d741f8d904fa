/**
 * Time a GraphQL operation spends waiting for background work it started (an import for its run, a webhook test for
 * its first attempt). The execution time limit (SKIFF_EXECUTION_TIMEOUT_MS, src/server/query-cost.ts) does not count
 * it: the wait has its own limit (SKIFF_IMPORT_WAIT_MS, the attempt's budget, the shutdown's answer-by moment), and
 * the fields of the answer resolved after it must not fail with `EXECUTION_TIME_LIMIT`.
 */

/** Milliseconds each operation's context has spent in {@link outsideExecutionTime}. */
const waited = new WeakMap<object, number>();

/** Contexts made from an operation's context for one resolver (see {@link shareExecutionTime}): → that context. */
const operationContexts = new WeakMap<object, object>();

/** The operation's own context of `context` (itself unless it is a copy made for one resolver). */
function operationContext(context: object): object {
  return operationContexts.get(context) ?? context;
}

/**
 * Makes `copy` (a context derived from `original` for one resolver, e.g. with another database handle) count its
 * waits for `original`'s operation, whose fields' deadlines are checked against `original`.
 */
export function shareExecutionTime(copy: object, original: object): void {
  operationContexts.set(copy, operationContext(original));
}

/** Resolves (or rejects) as `wait`, its duration left out of the execution time of `context`'s operation. */
export async function outsideExecutionTime<T>(context: object, wait: Promise<T>): Promise<T> {
  const start = performance.now();
  const key = operationContext(context);
  try {
    return await wait;
  } finally {
    waited.set(key, (waited.get(key) ?? 0) + performance.now() - start);
  }
}

/** Milliseconds `context`'s operation has spent in {@link outsideExecutionTime} so far (0 when none). */
export function waitedMs(context: object): number {
  return waited.get(operationContext(context)) ?? 0;
}
