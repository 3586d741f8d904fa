/**
 * Live import status over graphql-ws across server instances: the import runs on instance A, the WebSocket
 * client is connected to instance B on the same database, and every status change (pending, pending after each
 * committed step, failed, pending again on retry, success, and `deleted` once the record is deleted) arrives through PostgreSQL LISTEN/NOTIFY —
 * filtered by organization and grants.
 */
import { type Client, createClient } from "graphql-ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import type { RunningSkiff } from "../../src/server/start.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { addMember, createOrg, createProjects, createRegistry } from "../helpers/seed.ts";
import { gql, startTestServer } from "../helpers/server.ts";
import { dockerRequest, importReadyOrg, rest } from "./import-helpers.ts";

let db: TestDatabase;
let a: RunningSkiff;
let b: RunningSkiff;
const clients: Client[] = [];
beforeAll(async () => {
  db = await createTestDatabase();
  [a, b] = await Promise.all([startTestServer(db.url), startTestServer(db.url)]);
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.dispose()));
  await Promise.all([a?.stop(), b?.stop()]);
  await db?.drop();
});

type Update = { importId: string; status: string; siteImport: { id: string; name: string } | null };

const SUBSCRIPTION = `subscription($id: ID) { siteImportUpdated(id: $id) { importId status siteImport { id name } } }`;

/** A subscription on instance B: received updates, errors, and a way to wait for a number of updates. */
function subscribe(apiKey: string, id: string | null = null) {
  const client = createClient({
    url: `${b.url.replace("http", "ws")}/graphql`,
    webSocketImpl: WebSocket,
    retryAttempts: 0,
    connectionParams: { authorization: `Bearer ${apiKey}` },
  });
  clients.push(client);
  const updates: Update[] = [];
  const errors: unknown[] = [];
  let notify = () => {};
  client.subscribe<{ siteImportUpdated: Update }>(
    { query: SUBSCRIPTION, variables: { id } },
    {
      next: (msg) => {
        if (msg.errors) errors.push(...msg.errors);
        if (msg.data) updates.push(msg.data.siteImportUpdated);
        notify();
      },
      error: (e) => {
        errors.push(e);
        notify();
      },
      complete: () => {},
    },
  );
  return {
    updates,
    errors,
    /** Resolves once `count` updates (or an error) arrived; rejects after 10 s. */
    waitFor(count: number): Promise<void> {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`got ${JSON.stringify(updates)}`)), 10_000);
        notify = () => {
          if (updates.length >= count || errors.length) {
            clearTimeout(timer);
            resolve();
          }
        };
        notify();
      });
    },
  };
}

/** Waits until instance B has `count` live import subscriptions. */
/**
 * POSTs the site import `body` on instance A with `apiKey` and waits until instance B has dispatched the import's
 * `success` event: its events reach B by NOTIFY, possibly after the POST answered, and subscriptions started on B
 * later must not receive them (B dispatches in commit order: once `success` is seen, every earlier event was).
 */
async function importSeenByB(apiKey: string, body: unknown) {
  const seen: Array<Record<string, unknown>> = [];
  const probe = b.services.pubsub.subscribe("site_import.updated", (payload) => void seen.push(payload));
  try {
    const res = await rest<{ importId: string; status: string }>(a.url, "POST", "/api/site-import", { apiKey }, body);
    const done = () => seen.some((e) => e.id === res.body.importId && e.status === "success");
    for (let i = 0; i < 400 && !done(); i++) await new Promise((r) => setTimeout(r, 25));
    expect(done()).toBe(true);
    return res;
  } finally {
    probe();
  }
}

async function listening(count: number): Promise<void> {
  for (let i = 0; i < 200 && b.services.pubsub.listenerCount("site_import.updated") < count; i++) {
    await new Promise((r) => setTimeout(r, 25));
  }
  expect(b.services.pubsub.listenerCount("site_import.updated")).toBeGreaterThanOrEqual(count);
}

describe("siteImportUpdated", () => {
  it("delivers pending → failed → pending (retry) → pending per step → success from instance A to a client on instance B", async () => {
    const org = await createOrg(db.knex);
    const base = b.services.pubsub.listenerCount("site_import.updated");
    const sub = subscribe(org.owner.apiKey);
    await listening(base + 1);

    const first = await rest<{ importId: string; status: string }>(
      a.url,
      "POST",
      "/api/site-import",
      { apiKey: org.owner.apiKey },
      dockerRequest(org.organizationId, { name: "live" }),
    );
    expect(first.body.status).toBe("failed"); // no container registry yet
    await createRegistry(db.knex, org.organizationId);
    const retried = await gql(
      a.url,
      "mutation($id: ID!) { retrySiteImport(id: $id) { status } }",
      { id: first.body.importId },
      { apiKey: org.owner.apiKey },
    );
    expect(retried.data).toEqual({ retrySiteImport: { status: "success" } });

    await sub.waitFor(6);
    expect(sub.errors).toEqual([]);
    // The retry's run publishes each committed step (project, application) as `pending`, then its end.
    expect(sub.updates.map((u) => u.status)).toEqual(["pending", "failed", "pending", "pending", "pending", "success"]);
    for (const u of sub.updates) {
      expect(u).toMatchObject({ importId: first.body.importId, siteImport: { id: first.body.importId, name: "live" } });
    }
  });

  it("with an id, delivers only that import; other organizations and ungranted members see nothing", async () => {
    const org = await importReadyOrg(db.knex);
    const other = await importReadyOrg(db.knex);
    const [grantedProject] = await createProjects(db.knex, org.organizationId, 1);
    const limited = await addMember(db.knex, org.organizationId, "member", { projectIds: [grantedProject!] });
    const member = await addMember(db.knex, org.organizationId, "member");
    const watched = await importSeenByB(org.owner.apiKey, dockerRequest(org.organizationId, { name: "watched" }));
    await db.knex("site_imports").where({ id: watched.body.importId }).update({ status: "failed" });

    const base = b.services.pubsub.listenerCount("site_import.updated");
    const byId = subscribe(org.owner.apiKey, watched.body.importId);
    const wholeOrg = subscribe(member.apiKey);
    const foreign = subscribe(other.owner.apiKey);
    const ungranted = subscribe(limited.apiKey);
    await listening(base + 4);

    const unrelated = await rest<{ importId: string }>(
      a.url,
      "POST",
      "/api/site-import",
      { apiKey: org.owner.apiKey },
      dockerRequest(org.organizationId, { name: "unrelated" }),
    );
    await gql(
      a.url,
      "mutation($id: ID!) { retrySiteImport(id: $id) { status } }",
      { id: watched.body.importId },
      { apiKey: org.owner.apiKey },
    );

    await byId.waitFor(4);
    await wholeOrg.waitFor(8);
    await new Promise((r) => setTimeout(r, 300));
    // Queued, project done, application done (each `pending`), then the end.
    expect(byId.updates.map((u) => [u.importId, u.status])).toEqual([
      [watched.body.importId, "pending"],
      [watched.body.importId, "pending"],
      [watched.body.importId, "pending"],
      [watched.body.importId, "success"],
    ]);
    expect(wholeOrg.updates.map((u) => u.importId).sort()).toEqual(
      [...Array(4).fill(unrelated.body.importId), ...Array(4).fill(watched.body.importId)].sort(),
    );
    expect(foreign.updates).toEqual([]);
    expect(ungranted.updates).toEqual([]);
    expect([byId.errors, wholeOrg.errors, foreign.errors, ungranted.errors]).toEqual([[], [], [], []]);
  });

  it("delivers a deletion as `deleted` with a null record, to those who could see the import only", async () => {
    const org = await importReadyOrg(db.knex);
    const other = await importReadyOrg(db.knex);
    const doomed = await importSeenByB(org.owner.apiKey, dockerRequest(org.organizationId, { name: "doomed" }));
    expect(doomed.body.status).toBe("success");
    const [record] = await db.knex("site_imports").where({ id: doomed.body.importId }).select("project_id");
    const [elsewhere] = await createProjects(db.knex, org.organizationId, 1);
    const granted = await addMember(db.knex, org.organizationId, "member", { projectIds: [record.projectId] });
    const ungranted = await addMember(db.knex, org.organizationId, "member", { projectIds: [elsewhere!] });

    const base = b.services.pubsub.listenerCount("site_import.updated");
    const owner = subscribe(org.owner.apiKey);
    const byId = subscribe(org.owner.apiKey, doomed.body.importId);
    const grantedSub = subscribe(granted.apiKey);
    const ungrantedSub = subscribe(ungranted.apiKey);
    const foreign = subscribe(other.owner.apiKey);
    await listening(base + 5);

    const deleted = await gql(
      a.url,
      "mutation($id: ID!) { deleteSiteImport(id: $id) { id } }",
      { id: doomed.body.importId },
      { apiKey: org.owner.apiKey },
    );
    expect(deleted.errors).toBeUndefined();

    const expected = [{ importId: doomed.body.importId, status: "deleted", siteImport: null }];
    await Promise.all([owner.waitFor(1), byId.waitFor(1), grantedSub.waitFor(1)]);
    await new Promise((r) => setTimeout(r, 300));
    expect(owner.updates).toEqual(expected);
    expect(byId.updates).toEqual(expected);
    expect(grantedSub.updates).toEqual(expected);
    expect(ungrantedSub.updates).toEqual([]);
    expect(foreign.updates).toEqual([]);
    expect([owner.errors, byId.errors, grantedSub.errors, ungrantedSub.errors, foreign.errors]).toEqual([
      [],
      [],
      [],
      [],
      [],
    ]);
  });

  it("answers NOT_FOUND for an import id the caller cannot see", async () => {
    const org = await importReadyOrg(db.knex);
    const other = await importReadyOrg(db.knex);
    const theirs = await rest<{ importId: string }>(
      a.url,
      "POST",
      "/api/site-import",
      { apiKey: other.owner.apiKey },
      dockerRequest(other.organizationId),
    );
    const sub = subscribe(org.owner.apiKey, theirs.body.importId);
    await sub.waitFor(1);
    expect(sub.errors).toEqual([
      expect.objectContaining({ extensions: expect.objectContaining({ code: "NOT_FOUND" }) }),
    ]);
  });
});
