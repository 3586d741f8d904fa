/**
 * Time a GraphQL operation spends waiting for background work it started (an import for its run, a webhook test for
 * its first attempt). The execution time limit (SKIFF_EXECUTION_TIMEOUT_MS, src/server/query-cost.ts) does not count
 * it: the wait has its own limit (SKIFF_IMPORT_WAIT_MS, the attempt's budget, the shutdown's answer-by moment), and
 * the fields of the answer resolved after it must not fail with `EXECUTION_TIME_LIMIT`.
 */

import { operationContextOf } from "./operation-context.ts";

/** Milliseconds each operation's context has spent in {@link outsideExecutionTime} (copies count for it). */
const waited = new WeakMap<object, number>();

/** Resolves (or rejects) as `wait`, its duration left out of the execution time of `context`'s operation. */
export async function outsideExecutionTime<T>(context: object, wait: Promise<T>): Promise<T> {
  const start = performance.now();
  const key = operationContextOf(context);
  try {
    return await wait;
  } finally {
    waited.set(key, (waited.get(key) ?? 0) + performance.now() - start);
  }
}

/** Milliseconds `context`'s operation has spent in {@link outsideExecutionTime} so far (0 when none). */
export function waitedMs(context: object): number {
  return waited.get(operationContextOf(context)) ?? 0;
}
