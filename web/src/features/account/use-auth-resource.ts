/** A better-auth list the account page shows (sessions, ways to sign in), re-read after each action on it. */

import { useCallback, useEffect, useState } from "react";
import { messageOf } from "../../shared/errors.ts";

/**
 * Reads `load` (a stable function) on mount and whenever `version` changes (something elsewhere on the page changed
 * the list); `act` runs an action, keeps its error in words, then reads again. `data` is null until the first read.
 */
export function useAuthResource<T>(load: () => Promise<T>, version = 0) {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  const reload = useCallback(() => {
    load().then(setData, (e: Error) => setError(e.message));
  }, [load]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `version` is the signal to read again.
  useEffect(reload, [reload, version]);
  async function act(action: () => Promise<unknown>) {
    setError(null);
    try {
      await action();
    } catch (e) {
      setError(messageOf(e));
    }
    reload();
  }
  return { data, error, act };
}
