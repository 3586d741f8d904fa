/**
 * With real WebSocket clients and two instances on one database: deleting an API key, changing a
 * member's role or signing out closes that caller's open subscriptions with 4403 — also when the change is made on
 * the other instance (LISTEN/NOTIFY).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import type { RunningSkiff } from "../../src/server/start.ts";
import { ACCESS_CHANGED_TOPIC } from "../../src/shared/access-changes.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { addMember, createOrg } from "../helpers/seed.ts";
import { gql, startTestServer } from "../helpers/server.ts";
import { sessionFor } from "../helpers/session.ts";

let db: TestDatabase;
let a: RunningSkiff;
let b: RunningSkiff;
let org: Awaited<ReturnType<typeof createOrg>>;

beforeAll(async () => {
  db = await createTestDatabase();
  a = await startTestServer(db.url, { SKIFF_WORKER: "false" });
  b = await startTestServer(db.url, { SKIFF_WORKER: "false" });
  org = await createOrg(db.knex);
});
afterAll(async () => {
  await a?.stop();
  await b?.stop();
  await db?.drop();
});

/** Opens an authenticated graphql-ws connection to `server` with a live heartbeat subscription. */
async function subscribed(server: RunningSkiff, init: Record<string, unknown>, headers: Record<string, string> = {}) {
  const ws = new WebSocket(`${server.url.replace("http", "ws")}/graphql`, "graphql-transport-ws", { headers });
  const closed = new Promise<number>((resolve) => ws.once("close", (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    ws.once("open", () => ws.send(JSON.stringify({ type: "connection_init", payload: init })));
    ws.on("message", (data) => {
      const msg = JSON.parse(String(data));
      if (msg.type === "connection_ack") {
        ws.send(JSON.stringify({ id: "1", type: "subscribe", payload: { query: "subscription { heartbeat }" } }));
      }
      if (msg.type === "next") resolve();
    });
    ws.once("close", (code) => reject(new Error(`closed ${code} before the first event`)));
  });
  return { ws, closed };
}

/** Resolves with the close code, or "open" after `ms`. */
function within(closed: Promise<number>, ms = 3000): Promise<number | "open"> {
  return Promise.race([closed, new Promise<"open">((r) => setTimeout(() => r("open"), ms))]);
}

describe("access changes close subscriptions with 4403", () => {
  it("deleting an API key on instance A closes its subscription on instance B", async () => {
    const member = await addMember(db.knex, org.organizationId, "admin");
    const other = await subscribed(b, { authorization: `Bearer ${org.owner.apiKey}` });
    const victim = await subscribed(b, { authorization: `Bearer ${member.apiKey}` });
    expect(b.services.pubsub.listenerCount(ACCESS_CHANGED_TOPIC)).toBeGreaterThan(0);
    const res = await gql(
      a.url,
      "mutation($id: ID!) { deleteApiKey(id: $id) }",
      { id: member.apiKeyId },
      {
        apiKey: org.owner.apiKey,
      },
    );
    expect(res.errors).toBeUndefined();
    expect(await within(victim.closed)).toBe(4403);
    expect(await within(other.closed, 300)).toBe("open");
    other.ws.close();
  });

  it("changing a member's role closes that member's subscriptions", async () => {
    const member = await addMember(db.knex, org.organizationId, "admin");
    const sub = await subscribed(a, { authorization: `Bearer ${member.apiKey}` });
    const res = await gql(
      b.url,
      "mutation($id: ID!) { updateMemberRole(memberId: $id, role: member) { id role } }",
      { id: member.memberId },
      { apiKey: org.owner.apiKey },
    );
    expect(res.errors).toBeUndefined();
    expect(await within(sub.closed)).toBe(4403);
  });

  it("signing out closes the session's subscriptions", async () => {
    const member = await addMember(db.knex, org.organizationId, "member");
    const cookie = await sessionFor(db.knex, a.url, member);
    const sub = await subscribed(b, {}, { cookie });
    const out = await fetch(`${a.url}/api/auth/sign-out`, {
      method: "POST",
      headers: {
        cookie,
        "content-type": "application/json",
        origin: new URL(a.services.config.SKIFF_BASE_URL ?? a.url).origin,
      },
      body: "{}",
    });
    expect(out.status).toBe(200);
    expect(await within(sub.closed)).toBe(4403);
  });
});
