/**
 * Subscription results shared across subscribers of one event (src/server/shared-execution.ts), on a small real
 * schema: subscribers with the same operation get one execution of a shareable event; an execution whose
 * resolvers read the context, one with errors, other variables, or an event not marked shareable are executed
 * per subscriber. Resolvers that read the caller through the compiled reads' caller (src/reads/caller-dependencies.ts)
 * share one execution among subscribers equal on what they read (role and organization, not the user), and
 * subscribers that differ on it get their own.
 */
import { buildSchema, type ExecutionResult, parse } from "graphql";
import { describe, expect, it } from "vitest";
import { compiledReadCaller } from "../../src/reads/resolvers.ts";
import { keyOperation, subscribeSharing } from "../../src/server/shared-execution.ts";
import { shareableEvent } from "../../src/shared/pubsub.ts";

const schema = buildSchema(`
  type Query { ok: Boolean }
  type Update { id: ID!  label(prefix: String): String  viewer: String  broken: String  role: String  mine: String }
  type Subscription { updated: Update! }
`);

let calls = { label: 0, viewer: 0, role: 0, mine: 0 };

/** A standing of `userId` in organization `org` with `role` (the fields compiled reads see). */
function standing(org: string, userId: string, role: string) {
  return { organizationId: org, memberId: `m-${userId}`, role, grants: null, planFeatures: [] };
}

/**
 * A subscriber's context as the WebSocket transport builds it: `viewer` names it (read by `viewer`), and as an
 * API key's caller it is user `viewer` with role `role` in organization `org` (memberships already loaded).
 */
function contextOf(viewer: string, role = "owner", org = "org-1") {
  const orgs = new Map([[org, standing(org, viewer, role)]]);
  return {
    viewer,
    caller: { userId: viewer, organizationId: org, via: "apiKey" as const, apiKeyId: `key-${viewer}` },
    scope: { memberships: async () => orgs, settledMemberships: () => orgs },
    services: { now: () => new Date() },
  };
}

/** One subscriber: a source stream of `events`, a context naming the viewer, and the operation `query`. */
async function subscriber(
  events: object[],
  viewer: string,
  query: string,
  variables: Record<string, unknown> = {},
  context: object = contextOf(viewer),
) {
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
    contextValue: context,
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
      // As a compiled read's declaration reads its caller: the role in the active organization, or the user.
      if (info.fieldName === "role" || info.fieldName === "mine") {
        calls[info.fieldName]++;
        return compiledReadCaller(context as never).then((caller) =>
          info.fieldName === "role" ? caller.orgs.get(caller.organizationId!)?.role : caller.userId,
        );
      }
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
    calls = { label: 0, viewer: 0, role: 0, mine: 0 };
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
    calls = { label: 0, viewer: 0, role: 0, mine: 0 };
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
    calls = { label: 0, viewer: 0, role: 0, mine: 0 };
    const events = [{ id: "a" }];
    const query = "subscription { updated { label } }";
    await Promise.all(["ann", "bob"].map((v) => subscriber(events, v, query)));
    expect(calls.label).toBe(2);
  });

  it("shares an execution that read the caller among subscribers equal on what it read, one per distinct value", async () => {
    calls = { label: 0, viewer: 0, role: 0, mine: 0 };
    const events = [shareableEvent({ id: "a" }), shareableEvent({ id: "b" })];
    const query = "subscription { updated { id role } }";
    const [ann, bob, cy, dee, eve] = await Promise.all([
      subscriber(events, "ann", query),
      subscriber(events, "bob", query),
      subscriber(events, "cy", query, {}, contextOf("cy", "member")),
      subscriber(events, "dee", query, {}, contextOf("dee", "member")),
      subscriber(events, "eve", query, {}, contextOf("eve", "owner", "org-2")),
    ]);
    expect(ann!.map((r) => r.data)).toEqual([
      { updated: { id: "a", role: "owner" } },
      { updated: { id: "b", role: "owner" } },
    ]);
    expect(cy!.map((r) => r.data)).toEqual([
      { updated: { id: "a", role: "member" } },
      { updated: { id: "b", role: "member" } },
    ]);
    expect(eve![0]!.data).toEqual({ updated: { id: "a", role: "owner" } });
    // Two owners of org-1 share one result, two members another; org-2's owner read another organization.
    expect(bob![0]).toBe(ann![0]);
    expect(dee![1]).toBe(cy![1]);
    expect(cy![0]).not.toBe(ann![0]);
    expect(eve![0]).not.toBe(ann![0]);
    expect(calls.role).toBe(3 * events.length);

    // What differs for every user (its id) is read: each subscriber executes for itself.
    calls.mine = 0;
    const mine = await Promise.all(
      ["ann", "bob"].map((v) => subscriber(events, v, "subscription { updated { mine } }")),
    );
    expect(mine.map((r) => r[0]!.data)).toEqual([{ updated: { mine: "ann" } }, { updated: { mine: "bob" } }]);
    expect(calls.mine).toBe(2 * events.length);
  });

  it("executes alone a subscriber whose memberships are not loaded", async () => {
    calls = { label: 0, viewer: 0, role: 0, mine: 0 };
    const events = [shareableEvent({ id: "a" })];
    const query = "subscription { updated { role } }";
    const unloaded = contextOf("bob");
    const orgs = await unloaded.scope.memberships();
    const pending = { ...unloaded, scope: { memberships: async () => orgs, settledMemberships: () => undefined } };
    const [ann, bob] = await Promise.all([
      subscriber(events, "ann", query),
      subscriber(events, "bob", query, {}, pending),
    ]);
    expect(bob![0]!.data).toEqual(ann![0]!.data);
    expect(calls.role).toBe(2);
  });
});
