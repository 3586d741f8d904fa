/**
 * The request context's copies (src/server/context.ts): Apollo clones the context of every HTTP operation with
 * `Object.assign(Object.create(prototype), context)` and services copy it into transactions (onTransaction): neither
 * copy builds the loaders on the way, and each copy still reads loaders of its own on first use.
 */
import type { Knex } from "knex";
import { pino } from "pino";
import { afterAll, describe, expect, it } from "vitest";
import { createKnex } from "../../src/db/knex.ts";
import { createSecretBox } from "../../src/db/secrets.ts";
import type { Context } from "../../src/modules/context.ts";
import type { AppServices } from "../../src/modules/services.ts";
import { buildContext } from "../../src/server/context.ts";
import { onTransaction } from "../../src/shared/transaction.ts";

// No statement runs here: a pool that is never used does not connect.
const knex = createKnex("postgres://127.0.0.1:1/none");
const services = {
  knex,
  log: pino({ level: "silent" }),
  secrets: createSecretBox("x".repeat(32)),
} as unknown as AppServices;
afterAll(() => knex.destroy());

/** Apollo Server's copy of a context (ApolloServer.js `cloneObject`). */
function apolloClone(ctx: Context): Context {
  return Object.assign(Object.create(Object.getPrototypeOf(ctx)) as Context, ctx);
}

/** Whether `ctx` has built its loaders (the own `built` slot of src/server/context.ts). */
function built(ctx: Context): boolean {
  return (ctx as unknown as { built: unknown }).built !== null;
}

describe("request context copies", () => {
  it("are made without building loaders, and build their own on first use", () => {
    const ctx = buildContext(services, null, "req-1");
    const copy = apolloClone(ctx);
    expect(built(ctx)).toBe(false);
    expect(built(copy)).toBe(false);
    const loaders = copy.loaders;
    expect(Object.keys(loaders).length).toBeGreaterThan(3);
    expect(copy.loaders).toBe(loaders);
    expect(built(ctx)).toBe(false);
    expect(copy.requestId).toBe("req-1");
    expect(copy.log.bindings()).toEqual({ requestId: "req-1" });
  });

  it("keep loaders built before the copy, and a transaction's copy keeps them reachable", () => {
    const ctx = buildContext(services, null, "req-2");
    const loaders = ctx.loaders;
    expect(apolloClone(ctx).loaders).toBe(loaders);
    const trx = { isTransaction: true } as unknown as Knex.Transaction;
    const inTx = onTransaction(ctx, trx);
    expect(inTx.knex).toBe(trx);
    expect(inTx.loaders).toBe(loaders);
    expect(inTx.scope).toBe(ctx.scope);
    expect(inTx.log.bindings()).toEqual({ requestId: "req-2" });
    expect(inTx.requestId).toBe("req-2");
    expect(ctx.knex).toBe(knex);
  });

  it("renews its loaders for each event (forEvent) and takes replaced ones", () => {
    const ctx = buildContext(services, null, "req-3");
    const first = ctx.loaders;
    expect(ctx.forEvent()).toBe(ctx);
    expect(ctx.loaders).not.toBe(first);
    ctx.loaders = first;
    expect(ctx.loaders).toBe(first);
  });
});
