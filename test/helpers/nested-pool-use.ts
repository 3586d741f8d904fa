/**
 * Finds code that waits for a second pooled connection while its own transaction holds one: under load every
 * connection of the pool is held by such transactions and each waits for another, so the instance stalls until the
 * pool's acquire timeout (a few concurrent requests suffice with a pool of 10). The check wraps Knex's own connection
 * handling for the in-process servers of the test files: a transaction's handler runs in an async context that
 * marks its connection held, and a connection taken from a pool within that context is recorded with its stack.
 * `per-file-setup.ts` fails the test file that recorded one.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { createRequire } from "node:module";

interface Held {
  /** The transaction is over: later work started inside it no longer holds its connection. */
  done: boolean;
}

const held = new AsyncLocalStorage<Held>();
/** Stacks of the connections taken while a transaction's connection was held, since the last {@link takeNested}. */
const nested: string[] = [];

type AcquireForTransaction = (
  this: { lockOnly?: boolean },
  config: unknown,
  cb: (connection: unknown) => Promise<unknown>,
) => Promise<unknown>;

const require = createRequire(import.meta.url);
const Client = require("knex/lib/client.js") as { prototype: { acquireConnection(): Promise<unknown> } };
interface TransactionPrototype {
  lockOnly?: boolean;
  acquireConnection: AcquireForTransaction;
  _evaluateContainer(this: TransactionPrototype, config: unknown, container: unknown): Promise<unknown>;
}
const Transaction = require("knex/lib/execution/transaction.js") as { prototype: TransactionPrototype };

const Runner = require("knex/lib/execution/runner.js") as {
  prototype: { ensureConnection(this: { builder?: { toString(): string } }, ...args: unknown[]): Promise<unknown> };
};

/** The query whose connection is being taken (set synchronously around the pool's acquire call). */
let statement: { toString(): string } | undefined;

const poolAcquire = Client.prototype.acquireConnection;
if (!(poolAcquire as { wrapped?: boolean }).wrapped) {
  const wrappedAcquire = function (this: unknown) {
    const store = held.getStore();
    if (store && !store.done) nested.push(`${String(statement ?? "").slice(0, 300)}\n${deepStack()}`);
    return poolAcquire.call(this);
  };
  const ensureConnection = Runner.prototype.ensureConnection;
  Runner.prototype.ensureConnection = function (...args) {
    statement = this.builder;
    try {
      return ensureConnection.apply(this, args);
    } finally {
      statement = undefined;
    }
  };
  Client.prototype.acquireConnection = Object.assign(wrappedAcquire, { wrapped: true });
  // A transaction that is only an advisory lock (the first run's: once per instance, at start, before any request,
  // while better-auth creates the owner on connections of its own) is not counted as holding its connection.
  const evaluate = Transaction.prototype._evaluateContainer;
  Transaction.prototype._evaluateContainer = function (config, container) {
    this.lockOnly = String(container).includes("pg_advisory_xact_lock");
    return evaluate.call(this, config, container);
  };
  const transactionAcquire = Transaction.prototype.acquireConnection;
  Transaction.prototype.acquireConnection = function (config, cb) {
    if (this.lockOnly) return transactionAcquire.call(this, config, cb);
    return transactionAcquire.call(this, config, async (connection) => {
      const store: Held = { done: false };
      try {
        return await held.run(store, () => cb(connection));
      } finally {
        store.done = true;
      }
    });
  };
}

/** The stack of the caller, 40 frames deep (the default 10 end inside Knex). */
function deepStack(): string {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 40;
  try {
    return new Error("taken at").stack ?? "";
  } finally {
    Error.stackTraceLimit = limit;
  }
}

/** The stacks recorded since the last call (and forgets them). */
export function takeNested(): string[] {
  return nested.splice(0);
}
