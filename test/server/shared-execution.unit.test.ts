/**
 * Subscription results shared across subscribers of one event (src/server/shared-execution.ts), on a small real
 * schema: subscribers with the same operation get one execution of a shareable event; an execution whose
 * resolvers read the context, one with errors, other variables, or an event not marked shareable are executed
 * per subscriber.
 */
import { buildSchema, type ExecutionResult, parse } from "graphql";
import { describe, expect, it } from "vitest";
import { keyOperation, subscribeSharing } from "../../src/server/shared-execution.ts";
import { shareableEvent } from "../../src/shared/pubsub.ts";

const schema = buildSchema(`
  type Query { ok: Boolean }
  type Update { id: ID!  label(prefix: String): String  viewer: String  broken: String }
  type Subscription { updated: Update! }
`);

let calls = { label: 0, viewer: 0 };

/** One subscriber: a source stream of `events`, a context naming the viewer, and the operation `query`. */
async function subscriber(events: object[], viewer: string, query: string, variables: Record<string, unknown> = {}) {
  const document = parse(query);
  keyOperation(document, query, variables, undefined);
  const rootValue = {
    updated: async function* () {
      for (const event of events) yield event;
    },
  };
  const stream = await subscribeSharing({
    schema,
    document,
    variableValues: variables,
    contextValue: { viewer },
    rootValue,
    fieldResolver: (source, args, context, info) => {
      if (info.fieldName === "updated") return source; // the event is the root value of each execution
      if (info.fieldName === "label") {
        calls.label++;
        return `${args.prefix ?? ""}${(source as { id: string }).id}`;
      }
      if (info.fieldName === "viewer") {
        calls.viewer++;
        return (context as { viewer: string }).viewer;
      }
      if (info.fieldName === "broken") throw new Error("broken");
      return (source as Record<string, unknown>)[info.fieldName];
    },
    subscribeFieldResolver: () => rootValue.updated(),
  });
  if (!(Symbol.asyncIterator in stream)) throw new Error(JSON.stringify(stream));
  const results: ExecutionResult[] = [];
  for await (const result of stream) results.push(result);
  return results;
}

describe("subscribeSharing", () => {
  it("executes a context-free operation once per shareable event for all its subscribers", async () => {
    calls = { label: 0, viewer: 0 };
    const events = [shareableEvent({ id: "a" }), shareableEvent({ id: "b" })];
    const query = 'subscription { updated { id label(prefix: "#") } }';
    const all = await Promise.all(["ann", "bob", "cy"].map((v) => subscriber(events, v, query)));
    for (const results of all) {
      expect(results).toEqual([
        { data: { updated: { id: "a", label: "#a" } } },
        { data: { updated: { id: "b", label: "#b" } } },
      ]);
    }
    expect(calls.label).toBe(2);
    expect(all[1]![0]).toBe(all[0]![0]); // the very same result object
  });

  it("executes per subscriber when a resolver reads the context, on errors, or for other variables", async () => {
    calls = { label: 0, viewer: 0 };
    const events = [shareableEvent({ id: "a" })];
    const viewers = await Promise.all(
      ["ann", "bob"].map((v) => subscriber(events, v, "subscription { updated { id viewer } }")),
    );
    expect(viewers.map((r) => r[0]!.data)).toEqual([
      { updated: { id: "a", viewer: "ann" } },
      { updated: { id: "a", viewer: "bob" } },
    ]);
    expect(calls.viewer).toBe(2);

    const broken = await Promise.all(
      ["ann", "bob"].map((v) => subscriber(events, v, "subscription { updated { id broken } }")),
    );
    expect(broken[0]![0]).not.toBe(broken[1]![0]);
    expect(broken[1]![0]!.errors?.[0]?.message).toBe("broken");

    calls.label = 0;
    const query = "subscription($p: String) { updated { label(prefix: $p) } }";
    const [x, y] = await Promise.all([
      subscriber(events, "ann", query, { p: "x" }),
      subscriber(events, "bob", query, { p: "y" }),
    ]);
    expect([x![0]!.data, y![0]!.data]).toEqual([{ updated: { label: "xa" } }, { updated: { label: "ya" } }]);
    expect(calls.label).toBe(2);
  });

  it("executes per subscriber for events not marked shareable", async () => {
    calls = { label: 0, viewer: 0 };
    const events = [{ id: "a" }];
    const query = "subscription { updated { label } }";
    await Promise.all(["ann", "bob"].map((v) => subscriber(events, v, query)));
    expect(calls.label).toBe(2);
  });
});
