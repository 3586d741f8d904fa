/**
 * Live status a client can resume (docs/subscriptions.md "Resuming after a dropped connection"), on real WebSockets:
 * a subscriber whose socket is cut mid-stream subscribes again with its last `cursor` as `after` while events keep
 * coming, and gets every event it may see exactly once (0 gaps, 0 duplicates at the seam), never another
 * organization's nor an ungranted project's (the replay runs the live visibility check); the same across a restart of
 * a spawned `src/main.ts`, and for the CLI's subscription (`skiff import`, `skiff deploy`) whose connection a TCP proxy
 * cuts; a cursor older than the retention answers CURSOR_EXPIRED, a malformed one or one beyond the newest event of
 * the log BAD_USER_INPUT, and from the newest cursor every later event arrives, one committed between the replay's
 * read and the stream going live included.
 */
import pino from "pino";
import { afterAll, describe, expect, it } from "vitest";
import { subscribe as cliSubscribe } from "../../clients/cli/api.ts";
import { ImportUpdatesSubscription } from "../../clients/cli/operations.ts";
import { SITE_IMPORT_TOPIC } from "../../src/modules/site-imports/site-import.events.ts";
import { cursorOf, pruneEventLog } from "../../src/shared/event-log.ts";
import { createPubSub, type EventRoute } from "../../src/shared/pubsub.ts";
import { createTestDatabase } from "../helpers/db.ts";
import { type SkiffProcess, spawnSkiff } from "../helpers/process.ts";
import {
  cursorAtEnd,
  type Got,
  newestSeq,
  publishImport as publish,
  subscribeImports as subscribe,
  until,
} from "../helpers/resume-subscriber.ts";
import { addMember, createOrg, createProjects } from "../helpers/seed.ts";
import { useTestServer } from "../helpers/server.ts";
import { tcpProxy } from "../helpers/tcp-proxy.ts";

const t = useTestServer();
/** The ids of `events` with every one checked: none twice (a duplicate fails). */
function distinctIds(events: Got[]): string[] {
  const ids = events.map((e) => e.importId);
  expect(new Set(ids).size, `duplicates in ${ids.join(",")}`).toBe(ids.length);
  return ids;
}

const processes: SkiffProcess[] = [];
afterAll(async () => {
  for (const p of processes) {
    if (p.child.exitCode === null && p.child.signalCode === null) {
      p.child.kill("SIGKILL");
      await p.exited;
    }
  }
});

describe("resuming live status", () => {
  it("resumes after a dropped WebSocket with 0 gaps and 0 duplicates, replaying only what the caller may see", async () => {
    const pubsub = t.skiff.services.pubsub;
    const a = await createOrg(t.db.knex);
    const b = await createOrg(t.db.knex);
    const [granted, other] = await createProjects(t.db.knex, a.organizationId, 2);
    // A member of A limited to one project: A's events of the other project and B's events are not for it.
    const member = await addMember(t.db.knex, a.organizationId, "member", { projectIds: [granted!] });
    const first = await subscribe(t.skiff.url, member.apiKey, null, pubsub);
    const total = 60;
    const expected = Array.from({ length: total }, (_, i) => `imp_seen_${i}`);
    let published = 0;
    let cutAt = -1;
    // Publishes go on while the socket is cut and while the new subscription starts (the seam).
    const publishing = (async () => {
      for (let i = 0; i < total; i++) {
        await publish(pubsub, expected[i]!, a.organizationId, granted!);
        await publish(pubsub, `imp_ungranted_${i}`, a.organizationId, other!);
        await publish(pubsub, `imp_other_org_${i}`, b.organizationId, null);
        published = i + 1;
        await new Promise((r) => setTimeout(r, 5));
      }
    })();
    await until(() => first.got.length >= 15);
    first.cut();
    cutAt = first.got.length;
    await until(() => published >= cutAt + 10);
    const last = first.got.at(-1)!;
    const second = await subscribe(t.skiff.url, member.apiKey, last.cursor, pubsub);
    await publishing;
    await until(() => first.got.length + second.got.length >= total);
    await new Promise((r) => setTimeout(r, 300));
    expect(second.error).toBeUndefined();
    const ids = distinctIds([...first.got, ...second.got]);
    expect(ids).toEqual(expected);
    console.info(
      `resume: ${first.got.length} events before the cut, ${second.got.length} after (replayed + live), 0 gaps, 0 duplicates`,
    );
    await second.close();
  }, 60_000);

  it("answers CURSOR_EXPIRED for a cursor older than the retention, BAD_USER_INPUT for a malformed one", async () => {
    const pubsub = t.skiff.services.pubsub;
    const { organizationId, owner } = await createOrg(t.db.knex);
    const sub = await subscribe(t.skiff.url, owner.apiKey, null, pubsub);
    await publish(pubsub, "imp_old_1", organizationId, null);
    await publish(pubsub, "imp_old_2", organizationId, null);
    await until(() => sub.got.length === 2);
    await sub.close();
    const old = sub.got[0]!.cursor;
    // Within the retention: resumes.
    const again = await subscribe(t.skiff.url, owner.apiKey, old, pubsub);
    await until(() => again.got.length === 1);
    expect(again.got[0]!.importId).toBe("imp_old_2");
    await again.close();
    // Past it, before the prune has run: expired by its age, not replayed.
    await t.db.knex.raw("update event_log set created_at = now() - interval '2 days' where payload like '%imp_old_%'");
    const aged = await subscribe(t.skiff.url, owner.apiKey, old);
    await until(() => aged.error !== undefined);
    expect(aged.error![0]!.extensions?.code).toBe("CURSOR_EXPIRED");
    expect(aged.got).toEqual([]);
    await aged.close();
    // And once the events are pruned (in batches, by the job's function).
    expect(await pruneEventLog(t.db.knex, 24 * 3600 * 1000)).toBeGreaterThanOrEqual(2);
    const expired = await subscribe(t.skiff.url, owner.apiKey, old);
    await until(() => expired.error !== undefined);
    expect(expired.error![0]!.extensions?.code).toBe("CURSOR_EXPIRED");
    await expired.close();
    const malformed = await subscribe(t.skiff.url, owner.apiKey, "not-a-cursor!");
    await until(() => malformed.error !== undefined);
    expect(malformed.error![0]!.extensions?.code).toBe("BAD_USER_INPUT");
    await malformed.close();
  }, 30_000);

  it("answers BAD_USER_INPUT for a cursor beyond the newest event of the log; from the newest, later events arrive", async () => {
    const pubsub = t.skiff.services.pubsub;
    const { organizationId, owner } = await createOrg(t.db.knex);
    await publish(pubsub, "imp_ahead_0", organizationId, null);
    const newest = await newestSeq(t.db.knex);
    // Just past the newest event, far past it, and 0 (before the first event: never a cursor of an event).
    for (const after of [cursorOf(newest + 1), "ZXZnamRneHI", cursorOf(0)]) {
      const ahead = await subscribe(t.skiff.url, owner.apiKey, after, pubsub);
      await until(() => ahead.error !== undefined);
      expect(ahead.error![0]!.extensions?.code, after).toBe("BAD_USER_INPUT");
      expect(ahead.got).toEqual([]);
      await ahead.close();
    }

    // Every replay's read, and what to do once it has read and before its stream goes live.
    const loggedAfter = pubsub.loggedAfter;
    const reads: Array<Promise<unknown>> = [];
    let afterRead: ((topic: string, route?: EventRoute) => Promise<void>) | null = null;
    pubsub.loggedAfter = (topic, afterSeq, route) => {
      const read = loggedAfter(topic, afterSeq, route);
      reads.push(read);
      return read.then(async (rows) => {
        await afterRead?.(topic, route);
        return rows;
      });
    };
    try {
      // The newest cursor is accepted, with nothing to replay. Between its replay's read and the stream going live,
      // an event commits outside this server (as another instance's would): it comes live, once.
      let seamSeq = 0;
      afterRead = async (topic, route) => {
        afterRead = null;
        let dispatched!: () => void;
        const seen = new Promise<void>((resolve) => {
          dispatched = resolve;
        });
        const off = pubsub.subscribe(topic, (payload) => payload.id === "imp_ahead_seam" && dispatched(), route);
        await t.db.knex.transaction((trx) => publish(pubsub, "imp_ahead_seam", organizationId, null, trx));
        seamSeq = await newestSeq(t.db.knex);
        await seen; // the stream's own handler, registered before, has held it
        off();
      };
      const seam = await subscribe(t.skiff.url, owner.apiKey, cursorOf(newest), pubsub);
      await until(() => seam.got.length === 1);
      expect(seamSeq).toBeGreaterThan(newest);
      expect(seam.got).toEqual([{ importId: "imp_ahead_seam", status: "pending", cursor: cursorOf(seamSeq) }]);
      const last = seam.got[0]!.cursor;
      await seam.close();

      // A publisher's transaction still open when a client subscribes with the newest cursor: its event is not in the
      // replay's snapshot (the cursor is not beyond the log), and arrives live at its commit, numbered after it.
      let sub!: Awaited<ReturnType<typeof subscribe>>;
      await t.db.knex.transaction(async (trx) => {
        await publish(pubsub, "imp_ahead_in_flight", organizationId, null, trx);
        const before = reads.length;
        sub = await subscribe(t.skiff.url, owner.apiKey, last, pubsub);
        await until(() => reads.length > before);
        await reads.at(-1);
      });
      for (let i = 0; i < 3; i++) await publish(pubsub, `imp_ahead_live_${i}`, organizationId, null);
      await until(() => sub.got.length >= 4);
      await new Promise((r) => setTimeout(r, 200));
      expect(sub.error).toBeUndefined();
      expect(distinctIds(sub.got)).toEqual([
        "imp_ahead_in_flight",
        "imp_ahead_live_0",
        "imp_ahead_live_1",
        "imp_ahead_live_2",
      ]);
      await sub.close();
    } finally {
      pubsub.loggedAfter = loggedAfter;
    }
  }, 30_000);

  it("resumes across a restart of Skiff (spawned src/main.ts) with 0 gaps and 0 duplicates", async () => {
    const db = await createTestDatabase();
    const pubsub = await createPubSub(db.url, db.knex, pino({ level: "silent" }));
    try {
      const start = async () => {
        const p = spawnSkiff({ DATABASE_URL: db.url, SKIFF_BOOTSTRAP: "false", SKIFF_WORKER: "false" });
        processes.push(p);
        const listening = await p.waitForLog((r) => String(r.msg).startsWith("Server listening at"), 60_000);
        return { p, url: String(listening.msg).replace("Server listening at ", "") };
      };
      const { organizationId, owner } = await createOrg(db.knex);
      const expected = Array.from({ length: 30 }, (_, i) => `imp_restart_${i}`);
      const server = await start();
      // From the log's end: an event published before the server's stream listens is replayed.
      const first = await subscribe(server.url, owner.apiKey, await cursorAtEnd(pubsub, db.knex));
      await publish(pubsub, expected[0]!, organizationId, null);
      await until(() => first.got.length === 1);
      for (let i = 1; i < 10; i++) await publish(pubsub, expected[i]!, organizationId, null);
      await until(() => first.got.length === 10);
      server.p.child.kill("SIGKILL");
      await server.p.exited;
      // Events while no Skiff runs.
      for (let i = 10; i < 20; i++) await publish(pubsub, expected[i]!, organizationId, null);
      const restarted = await start();
      const second = await subscribe(restarted.url, owner.apiKey, first.got.at(-1)!.cursor);
      for (let i = 20; i < 30; i++) await publish(pubsub, expected[i]!, organizationId, null);
      await until(() => second.got.length >= 20);
      await new Promise((r) => setTimeout(r, 300));
      expect(second.error).toBeUndefined();
      expect(distinctIds([...first.got, ...second.got])).toEqual(expected);
      await second.close();
      restarted.p.child.kill("SIGTERM");
      await restarted.p.exited;
    } finally {
      await pubsub.close();
      await db.drop();
    }
  }, 120_000);
  it("the CLI's subscription reconnects after its connection is cut and resumes with its last cursor", async () => {
    const pubsub = t.skiff.services.pubsub;
    const { organizationId, owner } = await createOrg(t.db.knex);
    const proxy = tcpProxy(t.skiff.url);
    await proxy.open();
    const got: string[] = [];
    const before = pubsub.listenerCount(SITE_IMPORT_TOPIC);
    const credentials = { url: proxy.url(t.skiff.url).replace(/\/$/, ""), apiKey: owner.apiKey };
    const sub = cliSubscribe(credentials, ImportUpdatesSubscription, {}, (d) => got.push(d.siteImportUpdated.importId));
    try {
      await sub.ready;
      await until(() => pubsub.listenerCount(SITE_IMPORT_TOPIC) > before);
      const expected = Array.from({ length: 30 }, (_, i) => `imp_cli_${i}`);
      for (let i = 0; i < 10; i++) await publish(pubsub, expected[i]!, organizationId, null);
      await until(() => got.length === 10);
      // The cut: the server sees the socket close; events go on meanwhile.
      await proxy.close();
      await until(() => pubsub.listenerCount(SITE_IMPORT_TOPIC) === before);
      for (let i = 10; i < 20; i++) await publish(pubsub, expected[i]!, organizationId, null);
      await proxy.open();
      await until(() => got.length >= 20, 30_000);
      for (let i = 20; i < 30; i++) await publish(pubsub, expected[i]!, organizationId, null);
      await until(() => got.length >= 30);
      await new Promise((r) => setTimeout(r, 300));
      expect(got).toEqual(expected);
    } finally {
      await sub.close();
      await proxy.close();
    }
  }, 60_000);
});
