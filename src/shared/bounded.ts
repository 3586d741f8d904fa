/**
 * Bounded waits for shutdown paths (every wait in the shutdown path has a deadline). A wait that passes
 * its deadline is abandoned, not cancelled: the work may still finish (or fail, its error then swallowed) later.
 */

/** How a {@link bounded} wait ended. */
export type BoundedOutcome =
  | { done: true }
  | { done: false; reason: "timeout" }
  | { done: false; reason: "error"; error: unknown };

/**
 * Waits for `work` at most `ms` milliseconds (a timer that does not keep the process alive).
 * @returns `{ done: true }`, or why not: `timeout` (abandoned) or `error` (it rejected). Never throws.
 */
export async function bounded(work: Promise<unknown>, ms: number): Promise<BoundedOutcome> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<BoundedOutcome>((resolve) => {
    timer = setTimeout(() => resolve({ done: false, reason: "timeout" }), Math.max(0, ms));
    timer.unref();
  });
  try {
    return await Promise.race([
      work.then(
        (): BoundedOutcome => ({ done: true }),
        (error: unknown): BoundedOutcome => ({ done: false, reason: "error", error }),
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
