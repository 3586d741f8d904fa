/**
 * Live import status fan-out with real graphql-ws clients on instance B and imports run on
 * instance A: B loads an event's record once however many subscribers it has (the SQL statements B issues per
 * event are the same for 1 and 20 subscribers), and each subscriber's visibility comes from its connection's
 * cached access, dropped when an access change is announced — a member whose grant is revoked stops receiving
 * the events of that project at once — and reloaded when a new subscription starts on the connection.
 */
import { type Client, createClient } from "graphql-ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { newId } from "../../src/db/ids.ts";
import type { RunningSkiff } from "../../src/server/start.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { addMember, createProjects } from "../helpers/seed.ts";
import { gql, startTestServer } from "../helpers/server.ts";
import { sessionFor } from "../helpers/session.ts";
import { dockerRequest, importReadyOrg, rest } from "./import-helpers.ts";

let db: TestDatabase;
let a: RunningSkiff;
let b: RunningSkiff;
const clients: Client[] = [];
beforeAll(async () => {
  db = await createTestDatabase();
  // B runs no jobs: every statement it issues while imports run on A is subscription work.
  [a, b] = await Promise.all([startTestServer(db.url), startTestServer(db.url, { SKIFF_WORKER: "false" })]);
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.dispose()));
  await Promise.all([a?.stop(), b?.stop()]);
  await db?.drop();
});

type Update = { importId: string; status: string; siteImport: { id: string; name: string } | null };

const SUBSCRIPTION = `subscription($id: ID) { siteImportUpdated(id: $id) { importId status siteImport { id name } } }`;

/** Subscribes `client` to the imports of its organization (or to import `id`): updates and errors received. */
function watch(client: Client, id: string | null = null) {
  const state = { updates: [] as Update[], errors: [] as unknown[] };
  client.subscribe<{ siteImportUpdated: Update }>(
    { query: SUBSCRIPTION, variables: { id } },
    {
      next: (msg) => {
        if (msg.errors) state.errors.push(...msg.errors);
        if (msg.data) state.updates.push(msg.data.siteImportUpdated);
      },
      error: (e) => state.errors.push(e),
      complete: () => {},
    },
  );
  return state;
}

/** A subscription to every import of the key's organization on instance B: updates, errors, close code. */
function subscribe(apiKey: string) {
  let closeCode: number | null = null;
  const client = createClient({
    url: `${b.url.replace("http", "ws")}/graphql`,
    webSocketImpl: WebSocket,
    retryAttempts: 0,
    connectionParams: { authorization: `Bearer ${apiKey}` },
    on: { closed: (event) => (closeCode = (event as { code: number }).code) },
  });
  clients.push(client);
  return Object.defineProperty(watch(client), "closeCode", { get: () => closeCode }) as ReturnType<typeof watch> & {
    readonly closeCode: number | null;
  };
}

/** Polls `check` every 20 ms until it holds; fails after 15 s with `what`. */
async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 750; i++) {
    if (check()) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** Waits until instance B has `count` live import subscriptions. */
const listening = (count: number) =>
  until(() => b.services.pubsub.listenerCount("site_import.updated") >= count, `${count} subscriptions`);

/**
 * Waits until instance B has issued no SQL statement for 300 ms: a subscription that just started loads its caller's
 * access once, after its listener is registered (so `listening` can hold while that statement is still to come).
 */
async function settled(): Promise<void> {
  let last = Date.now();
  const onQuery = () => {
    last = Date.now();
  };
  b.services.knex.on("query", onQuery);
  try {
    await until(() => Date.now() - last >= 300, "instance B to issue no statement for 300 ms");
  } finally {
    b.services.knex.removeListener("query", onQuery);
  }
}

/** Runs one import on instance A (owner's key) and returns its id. */
async function runImport(apiKey: string, organizationId: string, name: string): Promise<string> {
  const res = await rest<{ importId: string }>(
    a.url,
    "POST",
    "/api/site-import",
    { apiKey },
    dockerRequest(organizationId, { name }),
  );
  expect(res.status).toBeLessThan(300);
  return res.body.importId;
}

describe("siteImportUpdated fan-out", () => {
  it("issues at most one SQL statement per event, for 1 subscriber as for 20", async () => {
    const org = await importReadyOrg(db.knex);
    const [unrelated] = await createProjects(db.knex, org.organizationId, 1);
    const member = await addMember(db.knex, org.organizationId, "member");
    const limited = await addMember(db.knex, org.organizationId, "member", { projectIds: [unrelated!] });
    const keys = [org.owner.apiKey, member.apiKey, limited.apiKey];
    // A key's first use on B records its last-used time in the background: let those writes pass before counting.
    await Promise.all(keys.map((apiKey) => gql(b.url, "{ __typename }", {}, { apiKey })));
    await new Promise((r) => setTimeout(r, 300));

    /** Statements B issues while one import runs on A and `n` subscribers receive its events. */
    async function measure(n: number, name: string) {
      const base = b.services.pubsub.listenerCount("site_import.updated");
      const subs = Array.from({ length: n }, (_, i) => {
        const key = keys[i % keys.length]!;
        return { key, ...subscribe(key) };
      });
      await listening(base + n);
      // Their subscriptions' access loads are set-up, not per-event work: let them pass before counting.
      await settled();
      let statements = 0;
      const onQuery = () => statements++;
      b.services.knex.on("query", onQuery);
      try {
        const id = await runImport(org.owner.apiKey, org.organizationId, name);
        const seeing = subs.filter((s) => s.key !== limited.apiKey);
        await until(
          () => seeing.every((s) => s.updates.some((u) => u.importId === id && u.status === "success")),
          `every subscriber to receive the success of ${name}`,
        );
        await new Promise((r) => setTimeout(r, 300)); // nothing else still in flight
        const events = seeing[0]!.updates.filter((u) => u.importId === id).length;
        for (const s of subs) {
          expect(s.errors).toEqual([]);
          expect(s.updates).toEqual(
            s.key === limited.apiKey ? [] : expect.arrayContaining([expect.objectContaining({ importId: id })]),
          );
        }
        return { statements, events };
      } finally {
        b.services.knex.removeListener("query", onQuery);
        await Promise.all(clients.splice(0).map((c) => c.dispose()));
        await until(() => b.services.pubsub.listenerCount("site_import.updated") === base, "the subscriptions to end");
      }
    }

    const one = await measure(1, "fanout-one");
    const twenty = await measure(20, "fanout-twenty");
    console.log(
      `siteImportUpdated fan-out: ${one.statements} SQL statements on the subscribers' instance for ${one.events} events and 1 subscriber, ${twenty.statements} for ${twenty.events} events and 20`,
    );
    expect(twenty.events).toBe(one.events);
    // At most the record, once per event, whatever the number of subscribers (per subscriber it would be 20 × the
    // events). Not equality between the runs: events arriving in the same tick share one read, so a run may need
    // one statement fewer than another.
    expect(one.statements).toBeLessThanOrEqual(one.events);
    expect(twenty.statements).toBeLessThanOrEqual(twenty.events);
  });

  it("drops a connection's cached access when a grant is revoked: no more events of that project", async () => {
    const org = await importReadyOrg(db.knex);
    const kept = await runImport(org.owner.apiKey, org.organizationId, "kept");
    const revoked = await runImport(org.owner.apiKey, org.organizationId, "revoked");
    const projectOf = async (id: string) =>
      (await db.knex("site_imports").where({ id }).first("project_id")).projectId as string;
    const [keptProject, revokedProject] = [await projectOf(kept), await projectOf(revoked)];
    const limited = await addMember(db.knex, org.organizationId, "member", {
      projectIds: [keptProject, revokedProject],
    });
    const grant = await db.knex("member_grants").where({ member_id: limited.memberId, project_id: revokedProject });

    const base = b.services.pubsub.listenerCount("site_import.updated");
    const owner = subscribe(org.owner.apiKey);
    const before = subscribe(limited.apiKey);
    await listening(base + 2);

    // The grant is revoked and the import of that project deleted at once, both on instance A.
    const revoke = await gql(
      a.url,
      "mutation($id: ID!) { revokeAccess(grantId: $id) }",
      { id: grant[0].id },
      { apiKey: org.owner.apiKey },
    );
    expect(revoke.errors).toBeUndefined();
    const deleteImport = (id: string) =>
      gql(a.url, "mutation($id: ID!) { deleteSiteImport(id: $id) { id } }", { id }, { apiKey: org.owner.apiKey });
    expect((await deleteImport(revoked)).errors).toBeUndefined();
    await until(() => before.closeCode !== null, "the limited member's connection to close");
    expect(before.closeCode).toBe(4403);
    expect(before.updates).toEqual([]);

    // A new connection of the member sees the project still granted, not the revoked one.
    const after = subscribe(limited.apiKey);
    await listening(base + 2);
    expect((await deleteImport(kept)).errors).toBeUndefined();
    await until(() => owner.updates.length === 2 && after.updates.length === 1, "the deletions");
    await new Promise((r) => setTimeout(r, 300));
    expect(owner.updates.map((u) => [u.importId, u.status])).toEqual([
      [revoked, "deleted"],
      [kept, "deleted"],
    ]);
    expect(after.updates).toEqual([{ importId: kept, status: "deleted", siteImport: null }]);
    expect([owner.errors, after.errors]).toEqual([[], []]);
  });

  it("drops it too when a grant goes with its project (a cascade, announced by a trigger)", async () => {
    const org = await importReadyOrg(db.knex);
    const [doomed, other] = await createProjects(db.knex, org.organizationId, 2);
    const limited = await addMember(db.knex, org.organizationId, "member", { projectIds: [doomed!, other!] });
    const base = b.services.pubsub.listenerCount("site_import.updated");
    const sub = subscribe(limited.apiKey);
    const owner = subscribe(org.owner.apiKey);
    await listening(base + 2);
    const res = await gql(
      a.url,
      "mutation($id: ID!) { deleteProject(id: $id) }",
      { id: doomed },
      { apiKey: org.owner.apiKey },
    );
    expect(res.errors).toBeUndefined();
    await until(() => sub.closeCode !== null, "the limited member's connection to close");
    expect(sub.closeCode).toBe(4403);
    await new Promise((r) => setTimeout(r, 300));
    expect(owner.closeCode).toBeNull();
  });

  it("reloads a connection's access when a subscription starts: a membership gained since is seen", async () => {
    const org = await importReadyOrg(db.knex);
    const other = await importReadyOrg(db.knex);
    const person = await addMember(db.knex, org.organizationId, "admin");
    const cookie = await sessionFor(db.knex, a.url, person);
    const mine = await runImport(org.owner.apiKey, org.organizationId, "mine");
    const theirs = await runImport(other.owner.apiKey, other.organizationId, "theirs");
    const client = createClient({
      url: `${b.url.replace("http", "ws")}/graphql`,
      webSocketImpl: class extends WebSocket {
        constructor(address: string, protocols?: string | string[]) {
          super(address, protocols, { headers: { cookie } });
        }
      },
      retryAttempts: 0,
    });
    clients.push(client);
    const byId = (id: string) => watch(client, id);
    const base = b.services.pubsub.listenerCount("site_import.updated");
    const first = byId(mine);
    await listening(base + 1);
    // The person joins the other organization (no access change is announced for a gain).
    await db.knex("members").insert({
      id: newId("member"),
      organization_id: other.organizationId,
      user_id: person.userId,
      role: "member",
    });
    const second = byId(theirs);
    await listening(base + 2);
    const deleted = await gql(
      a.url,
      "mutation($id: ID!) { deleteSiteImport(id: $id) { id } }",
      { id: theirs },
      { apiKey: other.owner.apiKey },
    );
    expect(deleted.errors).toBeUndefined();
    await until(() => second.updates.length === 1 || second.errors.length > 0, "the deletion");
    expect(second.errors).toEqual([]);
    expect(second.updates).toEqual([{ importId: theirs, status: "deleted", siteImport: null }]);
    expect([first.updates, first.errors]).toEqual([[], []]);
  });
});
