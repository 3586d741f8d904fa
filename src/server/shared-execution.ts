/**
 * Subscription results computed once per event for many subscribers. A fan-out hands every subscriber that may see
 * an event the same event object, marked with `shareableEvent` (src/shared/pubsub.ts); subscribers with the same
 * operation (same text, variables and operation name) then take the result executed for the first of them —
 * provided that execution read nothing of its subscriber's context but the caller fields its compiled reads
 * recorded (src/reads/caller-dependencies.ts: organization, role, grants…), on which they agree. Subscribers that
 * differ on those fields share one execution per distinct set of values. An execution that read other context
 * (loaders, the caller's services) or raised errors is not shared: every subscriber then executes for itself, as
 * without this module. Events not marked shareable are always executed per subscriber. A shared result that is
 * ready is handed over synchronously, so an event reaches its subscribers one after the other, with no promise per
 * subscriber.
 */
import { createSourceEventStream, type DocumentNode, type ExecutionArgs, type ExecutionResult, execute } from "graphql";
import { LRUCache } from "lru-cache";
import { type ReadContext, SHARING_PROBE, type SharingProbe, settledFingerprint } from "../reads/index.ts";
import { isShareableEvent, type StreamConsumer } from "../shared/pubsub.ts";

/** The key of an operation's result: its text, variables and operation name (set by the transport per document). */
const operationKeys = new WeakMap<DocumentNode, string>();

/** Most operation keys kept in {@link sharedKeys}, and the bytes they may hold (UTF-16: 2 per code unit). */
const SHARED_KEYS = 10_000;
const SHARED_KEY_BYTES = 16 * 2 ** 20;

/**
 * Operation keys in use, each by itself (an LRU of {@link SHARED_KEYS} and {@link SHARED_KEY_BYTES}): thousands of
 * subscribers send the same operation, and each of their documents then keeps the one string rather than its own
 * copy. Bounded by bytes too: a key holds the query text and the variables, which a client chooses.
 */
const sharedKeys = new LRUCache<string, string>({
  max: SHARED_KEYS,
  maxSize: SHARED_KEY_BYTES,
  sizeCalculation: (key) => 2 * key.length,
});

/** Records the key of `document` (parsed once per `subscribe` message). */
export function keyOperation(
  document: DocumentNode,
  query: string,
  variables: Record<string, unknown> | null | undefined,
  operationName: string | null | undefined,
): void {
  const built = `${operationName ?? ""}\u0000${JSON.stringify(variables ?? {})}\u0000${query}`;
  const key = sharedKeys.get(built) ?? built;
  sharedKeys.set(key, key);
  operationKeys.set(document, key);
}

/** Receives the result of one event for one subscriber (see {@link resultOf}). */
interface ResultReceiver {
  resolved(result: ExecutionResult): void;
  rejected(error: unknown): void;
}

/** Context properties that are the instance's, not the subscriber's: reading them keeps a result shareable. */
const INSTANCE_WIDE = new Set<PropertyKey>(["services", "knex", "log"]);

/**
 * One execution of an event's operation, whose result may serve other subscribers: it runs with a probe on its
 * context (src/reads/caller-dependencies.ts), so it knows whether it read anything of its subscriber besides the
 * caller fields its compiled reads recorded (`paths`), and the fingerprint of its own caller over them. Subscribers
 * wait for it as callbacks in one array (no promise each), called one after the other when it settles.
 */
class SharedExecution {
  /** The result, or the error the execution threw. */
  result: ExecutionResult | null = null;
  error: unknown = null;
  /** The caller paths its reads recorded; null when the result may not be shared (context read, errors). */
  paths: readonly string[] | null = null;
  /** Its own caller's fingerprint over `paths`. */
  fingerprint = "";
  #waiters: Array<() => void> | null = [];

  constructor(args: ExecutionArgs, event: object) {
    const context = args.contextValue as ReadContext;
    const probe: SharingProbe = { context, paths: new Set() };
    let touched = false;
    const watched = new Proxy(context, {
      get(target, property) {
        if (property === SHARING_PROBE) return probe;
        if (!INSTANCE_WIDE.has(property)) touched = true;
        return Reflect.get(target, property, target);
      },
    });
    const settle = (result: ExecutionResult) => {
      this.result = result;
      const paths = [...probe.paths];
      const fingerprint = settledFingerprint(context, paths);
      if (!touched && !result.errors?.length && fingerprint !== undefined) {
        this.paths = paths;
        this.fingerprint = fingerprint;
      }
      this.#settled();
    };
    const fail = (error: unknown) => {
      this.error = error ?? new Error("Subscription execution failed");
      this.#settled();
    };
    try {
      const running = execute({ ...args, rootValue: event, contextValue: watched });
      if (running instanceof Promise) running.then(settle, fail);
      else settle(running);
    } catch (error) {
      fail(error);
    }
  }

  /** Calls `then` once settled: at once when it is, else after the execution (in the order of the calls). */
  whenSettled(then: () => void): void {
    if (this.#waiters) this.#waiters.push(then);
    else then();
  }

  /** Hands the result (or the error) to the subscriber it was executed for. */
  answer(receiver: ResultReceiver): void {
    if (this.error !== null) receiver.rejected(this.error);
    else receiver.resolved(this.result!);
  }

  /** Whether the subscriber of `context` may take this result: shareable, and equal on every path it read. */
  serves(context: ReadContext): boolean {
    return this.paths !== null && settledFingerprint(context, this.paths) === this.fingerprint;
  }

  #settled(): void {
    const waiters = this.#waiters!;
    this.#waiters = null;
    // Each waiter hands its own failure to its subscriber ({@link guarded}): one cannot stop the others.
    for (const waiter of waiters) waiter();
  }
}

/** `then`, whose exceptions go to `receiver` (a waiter of a {@link SharedExecution}). */
function guarded(receiver: ResultReceiver, then: () => void): () => void {
  return () => {
    try {
      then();
    } catch (error) {
      receiver.rejected(error);
    }
  };
}

/** An event's executions of one operation: the first, then one per caller fingerprint over the first's paths. */
interface OperationExecutions {
  first: SharedExecution;
  byFingerprint: Map<string, SharedExecution> | null;
}

/** Per shared event, by operation key. */
const executions = new WeakMap<object, Map<string, OperationExecutions>>();

/** Executes `args` on `event` for one subscriber alone. */
function executeAlone(args: ExecutionArgs, event: unknown, receiver: ResultReceiver): void {
  let running: ReturnType<typeof execute>;
  try {
    running = execute({ ...args, rootValue: event });
  } catch (error) {
    receiver.rejected(error);
    return;
  }
  if (!(running instanceof Promise)) receiver.resolved(running);
  else
    running.then(
      (result) => receiver.resolved(result),
      (error: unknown) => receiver.rejected(error),
    );
}

/**
 * The result of one event for one subscriber, handed to `receiver` (synchronously when a shared result is ready).
 * Subscribers with the same operation take the result executed for the first of them when that execution read
 * nothing of its subscriber but caller fields on which they agree (its organization, role, grants…, as its
 * compiled reads recorded them); subscribers that differ on them share one execution per distinct fingerprint. An
 * execution that read other context (loaders, the caller's services) or raised errors is not shared: each
 * subscriber then executes for itself. Events not marked shareable are always executed per subscriber.
 */
function resultOf(args: ExecutionArgs, event: unknown, receiver: ResultReceiver): void {
  const key = operationKeys.get(args.document);
  if (!key || typeof event !== "object" || event === null || !isShareableEvent(event)) {
    executeAlone(args, event, receiver);
    return;
  }
  let perEvent = executions.get(event);
  if (!perEvent) {
    perEvent = new Map();
    executions.set(event, perEvent);
  }
  const known = perEvent.get(key);
  if (!known) {
    const first = new SharedExecution(args, event);
    perEvent.set(key, { first, byFingerprint: null });
    first.whenSettled(guarded(receiver, () => first.answer(receiver)));
    return;
  }
  known.first.whenSettled(guarded(receiver, () => join(known, args, event, receiver)));
}

/** {@link resultOf} once the operation's first execution for the event has settled. */
function join(known: OperationExecutions, args: ExecutionArgs, event: object, receiver: ResultReceiver): void {
  const { first } = known;
  const context = args.contextValue as ReadContext;
  if (first.serves(context)) {
    receiver.resolved(first.result!);
    return;
  }
  const fingerprint = first.paths === null ? undefined : settledFingerprint(context, first.paths);
  if (fingerprint === undefined) {
    executeAlone(args, event, receiver);
    return;
  }
  // Grouped by the first execution's paths; each group's own paths decide (its reads may have gone elsewhere).
  known.byFingerprint ??= new Map();
  const group = known.byFingerprint.get(fingerprint);
  if (!group) {
    const own = new SharedExecution(args, event);
    known.byFingerprint.set(fingerprint, own);
    own.whenSettled(guarded(receiver, () => own.answer(receiver)));
    return;
  }
  group.whenSettled(
    guarded(receiver, () =>
      group.serves(context) ? receiver.resolved(group.result!) : executeAlone(args, event, receiver),
    ),
  );
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
export class SharedResults implements AsyncIterableIterator<ExecutionResult>, StreamConsumer<unknown>, ResultReceiver {
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
      const value = await new Promise<ExecutionResult>((resolved, rejected) =>
        resultOf(this.#args, item.value, { resolved, rejected }),
      );
      return { value, done: false };
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

  /** The source's next event (from `take`): its result goes to the consumer ({@link resolved}). */
  onValue(event: unknown): void {
    resultOf(this.#args, event, this);
  }

  /** The result of the event taken (from {@link resultOf}), for the waiting consumer. */
  resolved(result: ExecutionResult): void {
    this.#taken()?.onValue(result);
  }

  /** The execution of the event taken failed (from {@link resultOf}). */
  rejected(error: unknown): void {
    this.onError(error);
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
