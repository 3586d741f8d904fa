/** Resolvers of the root types declared in schema/base.graphql. */
import type { Resolvers } from "../../generated/graphql.ts";

/** Seconds between two `Subscription.heartbeat` events. */
export const HEARTBEAT_SECONDS = 30;

/**
 * An endless stream of `{ heartbeat: true }`: one at once, then one every `seconds`; `return()` (the client
 * unsubscribed or disconnected) stops the timer at once.
 */
export function heartbeats(seconds: number): AsyncIterableIterator<{ heartbeat: boolean }> {
  let timer: NodeJS.Timeout | undefined;
  let first = true;
  let done = false;
  let wake: (() => void) | undefined;
  const finished = { value: undefined, done: true } as const;
  const iterator: AsyncIterableIterator<{ heartbeat: boolean }> = {
    async next() {
      if (done) return finished;
      if (!first) {
        await new Promise<void>((resolve) => {
          wake = resolve;
          timer = setTimeout(resolve, seconds * 1000);
        });
        if (done) return finished;
      }
      first = false;
      return { value: { heartbeat: true }, done: false };
    },
    async return() {
      done = true;
      clearTimeout(timer);
      wake?.();
      return finished;
    },
    [Symbol.asyncIterator]() {
      return iterator;
    },
  };
  return iterator;
}

/** `Mutation.ping`, `Subscription.heartbeat`. */
export const systemResolvers: Resolvers = {
  Mutation: {
    ping: () => true,
  },
  Subscription: {
    heartbeat: { subscribe: () => heartbeats(HEARTBEAT_SECONDS) },
  },
};
