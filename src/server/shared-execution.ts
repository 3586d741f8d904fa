/**
 * Subscription results computed once per event for many subscribers. A fan-out hands every
 * subscriber that may see an event the same event object, marked with `shareableEvent` (src/shared/pubsub.ts);
 * subscribers with the same operation (same text, variables and operation name) then get the same result,
 * computed for the first of them — provided no resolver of that execution read the context (loaders, access,
 * services: anything that could differ per subscriber). An execution that touched the context, or raised errors,
 * is not shared: every subscriber then executes for itself, as without this module. Events not marked shareable
 * are always executed per subscriber.
 */
import { createSourceEventStream, type DocumentNode, type ExecutionArgs, type ExecutionResult, execute } from "graphql";
import { isShareableEvent } from "../shared/pubsub.ts";

/** The key of an operation's result: its text, variables and operation name (set by the transport per document). */
const operationKeys = new WeakMap<DocumentNode, string>();

/** Per shared event and operation key: the first execution, and whether its result may be shared. */
const executions = new WeakMap<object, Map<string, Promise<{ result: ExecutionResult; shareable: boolean }>>>();

/** Records the key of `document` (parsed once per `subscribe` message). */
export function keyOperation(
  document: DocumentNode,
  query: string,
  variables: Record<string, unknown> | null | undefined,
  operationName: string | null | undefined,
): void {
  operationKeys.set(document, `${operationName ?? ""}\u0000${JSON.stringify(variables ?? {})}\u0000${query}`);
}

/** Executes `args` with the context wrapped so that any read of it makes the result unshareable. */
async function probe(args: ExecutionArgs, event: object): Promise<{ result: ExecutionResult; shareable: boolean }> {
  let touched = false;
  const context = args.contextValue as object;
  const watched = new Proxy(context, {
    get(target, property) {
      touched = true;
      return Reflect.get(target, property, target);
    },
  });
  const result = await execute({ ...args, rootValue: event, contextValue: watched });
  return { result, shareable: !touched && !result.errors?.length };
}

/** The result of one event for one subscriber: shared when it can be, else executed for this subscriber. */
async function resultOf(args: ExecutionArgs, event: unknown): Promise<ExecutionResult> {
  const key = operationKeys.get(args.document);
  if (!key || typeof event !== "object" || event === null || !isShareableEvent(event)) {
    return execute({ ...args, rootValue: event });
  }
  let perEvent = executions.get(event);
  if (!perEvent) {
    perEvent = new Map();
    executions.set(event, perEvent);
  }
  const first = perEvent.get(key);
  if (!first) {
    const execution = probe(args, event);
    perEvent.set(key, execution);
    return (await execution).result;
  }
  const { result, shareable } = await first;
  return shareable ? result : execute({ ...args, rootValue: event });
}

/**
 * graphql-js `subscribe` with {@link resultOf} as the mapping from source events to results.
 * @returns the result stream, or the ExecutionResult with errors when the source stream could not be created.
 */
export async function subscribeSharing(
  args: ExecutionArgs,
): Promise<AsyncIterableIterator<ExecutionResult> | ExecutionResult> {
  const source = await createSourceEventStream(args);
  if (!(Symbol.asyncIterator in source)) return source;
  const events = source[Symbol.asyncIterator]() as AsyncIterator<unknown>;
  const results: AsyncIterableIterator<ExecutionResult> = {
    async next() {
      const item = await events.next();
      if (item.done) return { value: undefined, done: true };
      return { value: await resultOf(args, item.value), done: false };
    },
    async return() {
      await events.return?.();
      return { value: undefined, done: true };
    },
    async throw(error?: unknown) {
      await events.return?.();
      throw error;
    },
    [Symbol.asyncIterator]() {
      return results;
    },
  };
  return results;
}
