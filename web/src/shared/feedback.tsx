/**
 * A page's feedback scope: the success and error messages of its actions are about the last thing the person did, so
 * starting another action, editing a form or cancelling clears the earlier ones. `useAction` errors and
 * {@link useNotice} notices inside a {@link FeedbackScope} follow it; outside one they stay until replaced.
 */
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useRef, useState } from "react";

interface Scope {
  /** Changes each time the messages are cleared. */
  epoch: number;
  /** Clears every message shown in the scope; @returns the new epoch (a message set after it stays). */
  clear(): number;
  /** A message was shown (so that the next {@link Scope.clear} re-renders). */
  shown(): void;
}

const FeedbackContext = createContext<Scope | null>(null);

/** Wraps a page (or a part of it) whose messages clear one another. */
export function FeedbackScope({ children }: { children: ReactNode }) {
  const counter = useRef(0);
  const dirty = useRef(false);
  const [epoch, setEpoch] = useState(0);
  const clear = useCallback(() => {
    // Nothing shown since the last clear: no re-render (forms call this on every keystroke).
    if (!dirty.current) return counter.current;
    dirty.current = false;
    counter.current += 1;
    setEpoch(counter.current);
    return counter.current;
  }, []);
  const shown = useCallback(() => {
    dirty.current = true;
  }, []);
  const value = useMemo(() => ({ epoch, clear, shown }), [epoch, clear, shown]);
  return <FeedbackContext.Provider value={value}>{children}</FeedbackContext.Provider>;
}

/** The scope's clear (for a form's onChange and for Cancel buttons); does nothing outside a scope. */
export function useClearFeedback(): () => void {
  const scope = useContext(FeedbackContext);
  return useCallback(() => {
    scope?.clear();
  }, [scope]);
}

/**
 * A message slot that empties when the scope clears, except right after `start()` was called for the action that
 * sets it. @returns `[message, set, start]`: `start()` clears the scope's other messages (call it when an action
 * begins), `set` shows or removes this one.
 */
export function useScopedMessage<T>(): [T | null, (value: T | null) => void, () => void] {
  const scope = useContext(FeedbackContext);
  const [value, setValue] = useState<T | null>(null);
  const own = useRef(-1);
  const epoch = scope?.epoch ?? 0;
  useEffect(() => {
    if (epoch !== own.current) setValue(null);
  }, [epoch]);
  const set = useCallback(
    (next: T | null) => {
      if (next !== null) scope?.shown();
      setValue(next);
    },
    [scope],
  );
  const start = useCallback(() => {
    setValue(null);
    if (scope) own.current = scope.clear();
  }, [scope]);
  return [value, set, start];
}

/** A success or information notice of the scope: `[notice, setNotice]`; setting one clears the scope's others. */
export function useNotice(): [string | null, (text: string | null) => void] {
  const [notice, set, start] = useScopedMessage<string>();
  const setNotice = useCallback(
    (text: string | null) => {
      start();
      set(text);
    },
    [start, set],
  );
  return [notice, setNotice];
}
