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
import { isShareableEvent, type StreamConsumer } from "../shared/pubsub.ts";

/** The key of an operation's result: its text, variables and operation name (set by the transport per document). */
const operationKeys = new WeakMap<DocumentNode, string>();

/** Per shared event and operation key: the first execution, and whether its result may be shared. */
const executions = new WeakMap<object, Map<string, Promise<{ result: ExecutionResult; shareable: boolean }>>>();

/** Most operation keys kept in {@link sharedKeys}. */
const SHARED_KEYS = 10_000;

/**
 * Operation keys in use, each by itself (an LRU of {@link SHARED_KEYS}): thousands of subscribers send the same
 * operation, and each of their documents then keeps the one string rather than its own copy.
 */
const sharedKeys = new Map<string, string>();

/** Records the key of `document` (parsed once per `subscribe` message). */
export function keyOperation(
  document: DocumentNode,
  query: string,
  variables: Record<string, unknown> | null | undefined,
  operationName: string | null | undefined,
): void {
  const built = `${operationName ?? ""}\u0000${JSON.stringify(variables ?? {})}\u0000${query}`;
  const key = sharedKeys.get(built) ?? built;
  // Most recently used last: the oldest entry is the first one evicted.
  sharedKeys.delete(key);
  sharedKeys.set(key, key);
  if (sharedKeys.size > SHARED_KEYS) sharedKeys.delete(sharedKeys.keys().next().value!);
  operationKeys.set(document, key);
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

/** The end of a result stream. */
const DONE: IteratorReturnResult<undefined> = Object.freeze({ value: undefined, done: true });

/** A source stream that can also push its next event to a consumer (src/shared/pubsub.ts `EventStream.take`). */
type PushingIterator = AsyncIterator<unknown> & { take(consumer: StreamConsumer<unknown>): void };

/**
 * A subscription's results: each event of its source stream mapped by {@link resultOf}, read with `next()` or
 * pushed with {@link take}. Its methods live on the prototype and its state in four fields, so that an idle
 * subscription holds one small object, not a closure per method; a transport extends it (`ended`, `failed`) rather
 * than wrapping it in another iterator. It is itself the consumer of its source's pushed events.
 */
export class SharedResults implements AsyncIterableIterator<ExecutionResult>, StreamConsumer<unknown> {
  /** The source stream's iterator, the operation's arguments, and whether `ended` has been called. */
  readonly #events: AsyncIterator<unknown>;
  readonly #args: ExecutionArgs;
  #open = true;
  /** The consumer of the result being taken ({@link take}). */
  #consumer: StreamConsumer<ExecutionResult> | null = null;

  constructor(events: AsyncIterator<unknown>, args: ExecutionArgs) {
    this.#events = events;
    this.#args = args;
  }

  /** Called once when the stream ends (source done, returned, thrown into, or failed). */
  protected ended(): void {}

  /**
   * Called with the error that ended the stream (from the source or the execution of an event); true makes the
   * stream end quietly (`next()` resolves done), false rethrows the error.
   */
  protected failed(_error: unknown): boolean {
    return false;
  }

  /** Calls {@link ended} the first time only. */
  #end(): void {
    if (this.#open) {
      this.#open = false;
      this.ended();
    }
  }

  /** The next event's result; done when the source is done. @throws what the source or the execution throws. */
  async next(): Promise<IteratorResult<ExecutionResult>> {
    try {
      const item = await this.#events.next();
      if (item.done) {
        this.#end();
        return DONE;
      }
      return { value: await resultOf(this.#args, item.value), done: false };
    } catch (error) {
      this.#end();
      if (this.failed(error)) return DONE;
      throw error;
    }
  }

  /**
   * Hands the next result to `consumer` (`onValue`), or the end (`onEnd`, also after an error `failed` accepts) or
   * the error (`onError`); one call per result, as `next()`. A source with `take` then holds only this object while
   * no event comes, no promise.
   */
  take(consumer: StreamConsumer<ExecutionResult>): void {
    const events = this.#events as Partial<PushingIterator>;
    if (typeof events.take !== "function") {
      this.next().then(
        (item) => (item.done ? consumer.onEnd() : consumer.onValue(item.value)),
        (error: unknown) => consumer.onError(error),
      );
      return;
    }
    this.#consumer = consumer;
    events.take(this);
  }

  /** The source's next event (from `take`): its result goes to the consumer. */
  onValue(event: unknown): void {
    resultOf(this.#args, event).then(
      (result) => this.#taken()?.onValue(result),
      (error: unknown) => this.onError(error),
    );
  }

  /** The source is done (from `take`). */
  onEnd(): void {
    this.#end();
    this.#taken()?.onEnd();
  }

  /** The source or an execution failed (from `take`). */
  onError(error: unknown): void {
    this.#end();
    const consumer = this.#taken();
    if (this.failed(error)) consumer?.onEnd();
    else consumer?.onError(error);
  }

  /** The waiting consumer, no longer waiting. */
  #taken(): StreamConsumer<ExecutionResult> | null {
    const consumer = this.#consumer;
    this.#consumer = null;
    return consumer;
  }

  /** Ends the stream and its source. */
  async return(): Promise<IteratorResult<ExecutionResult>> {
    this.#end();
    await this.#events.return?.();
    return DONE;
  }

  /** Ends the stream and its source. @throws `error`. */
  async throw(error?: unknown): Promise<IteratorResult<ExecutionResult>> {
    this.#end();
    await this.#events.return?.();
    throw error;
  }

  [Symbol.asyncIterator](): this {
    return this;
  }
}

/**
 * graphql-js `subscribe` with {@link resultOf} as the mapping from source events to results; `results` makes the
 * stream (a {@link SharedResults} unless a transport gives its own subclass).
 * @returns the result stream, or the ExecutionResult with errors when the source stream could not be created.
 */
export async function subscribeSharing(
  args: ExecutionArgs,
  results: (events: AsyncIterator<unknown>, args: ExecutionArgs) => SharedResults = (events) =>
    new SharedResults(events, args),
): Promise<SharedResults | ExecutionResult> {
  const source = await createSourceEventStream(args);
  if (!(Symbol.asyncIterator in source)) return source;
  return results(source[Symbol.asyncIterator]() as AsyncIterator<unknown>, args);
}
