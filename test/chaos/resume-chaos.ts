/**
 * Resume chaos (docs/subscriptions.md "Resuming after a dropped connection"): a real `src/main.ts` on a PostgreSQL of
 * the harness's own serves a client following `siteImportUpdated(after:)` while publishers commit live events from
 * concurrent transactions (committed in another order than they were numbered at insert). Skiff is SIGKILLed and
 * started again on the same port, then the PostgreSQL postmaster is SIGKILLed and restarted while the client's socket
 * is cut as well; the client reconnects after every drop with the last cursor it received (a resume refused while the
 * database is down is tried again). At the end, what the client got over all its connections is
 * compared with the events the log holds (what committed): 0 gaps, 0 duplicates, nothing that never committed.
 *
 * Used by test/chaos/resume-kill.test.ts (one run) and scripts/chaos-db.ts (`--resume N`: many runs). Plain Node.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import pino from "pino";
import { createKnex } from "../../src/db/knex.ts";
import { SITE_IMPORT_TOPIC } from "../../src/modules/site-imports/site-import.events.ts";
import { createPubSub } from "../../src/shared/pubsub.ts";
import { cursorAtEnd, ledger, type Subscriber, subscribeImports } from "../helpers/resume-subscriber.ts";
import { API_KEY, freePort, live, ownDatabase, request, type Skiff, startSkiff } from "./db-chaos.ts";

/** What one run saw. `problems` empty means every check passed. */
export interface ResumeChaosResult {
  /** Events the log holds for the run (committed), and how many the client got in all. */
  committed: number;
  received: number;
  gaps: number;
  duplicates: number;
  /** Events received that the log does not hold (never committed). */
  foreign: number;
  /** Connections the client opened (the first one and every resume). */
  connections: number;
  /** ms from each restart (Skiff, PostgreSQL) being up to the client's first event afterwards. */
  resumedAfterMs: { skiff: number | null; postgres: number | null };
  problems: string[];
}

/** Runs the sequence once (see the file comment); never throws for a failed check. */
export async function runResumeChaos(
  options: { publishers?: number; progress?: (line: string) => void } = {},
): Promise<ResumeChaosResult> {
  const say = options.progress ?? (() => {});
  const dir = await mkdtemp(join(tmpdir(), "skiff-chaos-resume-"));
  const problems: string[] = [];
  const result: ResumeChaosResult = {
    committed: 0,
    received: 0,
    gaps: 0,
    duplicates: 0,
    foreign: 0,
    connections: 0,
    resumedAfterMs: { skiff: null, postgres: null },
    problems,
  };
  const database = await ownDatabase(join(dir, "pg"), await freePort());
  const port = await freePort();
  const env = { DATABASE_URL: database.url, SKIFF_WORKER: "false" };
  let skiff: Skiff = await startSkiff(env, join(dir, "skiff.log"), port);
  const knex = createKnex(database.url);
  let stop = false;
  let stopPublishing = false;
  const cleanup = async () => {
    stop = true;
    if (!skiff.exit) skiff.child.kill("SIGKILL");
    await knex.destroy().catch(() => {});
    await database.stop().catch(() => {});
    const left = database.postmaster();
    if (left) process.kill(left, "SIGKILL");
  };
  live.add(cleanup);
  const tasks: Array<Promise<unknown>> = [];
  try {
    await ready(skiff);
    const { rows } = await knex.raw<{ rows: Array<{ id: string }> }>("select id from organizations limit 1");
    const organizationId = rows[0]!.id;
    const pubsub = await createPubSub(database.url, knex, pino({ level: "silent" }));

    // The client: follows with its last cursor, reconnecting after every drop (every 200 ms until it is back).
    const ids: string[] = [];
    const arrivals: number[] = [];
    // From the log's end before any publisher starts: the first connection misses nothing published before it listens.
    let cursor: string | null = await cursorAtEnd(pubsub, knex);
    let current: Subscriber | null = null;
    const follow = async () => {
      while (!stop) {
        let sub: Subscriber;
        try {
          sub = await subscribeImports(skiff.url, API_KEY, cursor);
        } catch {
          await sleep(200);
          continue;
        }
        current = sub;
        result.connections++;
        let taken = 0;
        while (!stop && !sub.closed && sub.error === undefined) {
          for (; taken < sub.got.length; taken++) {
            ids.push(sub.got[taken]!.importId);
            arrivals.push(Date.now());
            cursor = sub.got[taken]!.cursor;
          }
          await sleep(5);
        }
        for (; taken < sub.got.length; taken++) {
          ids.push(sub.got[taken]!.importId);
          arrivals.push(Date.now());
          cursor = sub.got[taken]!.cursor;
        }
        const code = sub.error?.[0]?.extensions?.code;
        if (code === "CURSOR_EXPIRED" || code === "BAD_USER_INPUT") problems.push(`resume refused: ${code}`);
        if (!sub.closed) await sub.close();
        if (!stop) await sleep(200);
      }
    };
    tasks.push(follow());

    // Publishers: each opens a transaction, publishes one event, waits 0-8 ms, commits; failures (the database down)
    // are retried after 100 ms. The log, not the publisher's view, says what committed.
    let n = 0;
    const publish = async (publisher: number) => {
      while (!stop && !stopPublishing) {
        const id = `imp_chaos_${publisher}_${n++}`;
        try {
          await knex.transaction(async (trx) => {
            await pubsub.publish(SITE_IMPORT_TOPIC, { id, organizationId, status: "pending", projectId: null }, trx);
            await sleep(Math.random() * 8);
          });
          await sleep(Math.random() * 10);
        } catch {
          await sleep(100);
        }
      }
    };
    for (let p = 0; p < (options.publishers ?? 3); p++) tasks.push(publish(p));

    const eventAfter = async (since: number, what: keyof ResumeChaosResult["resumedAfterMs"]) => {
      const deadline = Date.now() + 60_000;
      while (Date.now() < deadline) {
        const at = arrivals.find((t) => t > since);
        if (at !== undefined) {
          result.resumedAfterMs[what] = at - since;
          return;
        }
        await sleep(20);
      }
      problems.push(`no event reached the client within 60 s of the ${what} restart`);
    };

    await sleep(1500);
    say(`SIGKILL Skiff ${skiff.child.pid} (${ids.length} events so far)`);
    skiff.child.kill("SIGKILL");
    await skiff.exited;
    await sleep(1000);
    skiff = await startSkiff(env, join(dir, "skiff-restarted.log"), port);
    await ready(skiff);
    await eventAfter(Date.now(), "skiff");
    await sleep(1000);
    const postmaster = database.postmaster();
    say(`SIGKILL postmaster ${postmaster} (${ids.length} events so far)`);
    if (postmaster) process.kill(postmaster, "SIGKILL");
    // The client's socket drops too: it resumes while the database is down and coming back (refused resumes retry).
    (current as Subscriber | null)?.cut();
    await sleep(1500);
    await database.restart!();
    const back = Date.now();
    say("PostgreSQL restarted");
    await eventAfter(back, "postgres");
    await sleep(1500);

    // Publishing stops; the client catches up with what the log holds.
    stopPublishing = true;
    await Promise.all(tasks.slice(1));
    const { rows: logged } = await knex.raw<{ rows: Array<{ id: string }> }>(
      "select payload::jsonb ->> 'id' as id from event_log where topic = ? order by seq",
      [SITE_IMPORT_TOPIC],
    );
    const expected = logged.map((r) => r.id);
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline && ledger(ids, expected).gaps.length > 0) await sleep(50);
    await sleep(500);
    stop = true;
    await tasks[0];
    await (current as Subscriber | null)?.close();
    await pubsub.close();
    const counts = ledger(ids, expected);
    Object.assign(result, {
      committed: expected.length,
      received: ids.length,
      gaps: counts.gaps.length,
      duplicates: counts.duplicates.length,
      foreign: counts.foreign.length,
    });
    if (expected.length === 0) problems.push("no event committed");
    if (counts.gaps.length) problems.push(`${counts.gaps.length} gaps (first: ${counts.gaps.slice(0, 3).join(", ")})`);
    if (counts.duplicates.length) problems.push(`${counts.duplicates.length} duplicates`);
    if (counts.foreign.length) problems.push(`${counts.foreign.length} events received that never committed`);
    skiff.child.kill("SIGTERM");
    await Promise.race([skiff.exited, sleep(15_000)]);
  } catch (error) {
    problems.push(`harness: ${(error as Error).message}`);
  } finally {
    stop = true;
    await Promise.race([Promise.allSettled(tasks), sleep(5000)]);
    await cleanup();
    live.delete(cleanup);
  }
  if (problems.length === 0) await rm(dir, { recursive: true, force: true });
  else problems.push(`kept: ${dir}`);
  return result;
}

/** Waits until `skiff` answers /readyz 200 (at most 120 s). */
async function ready(skiff: Skiff): Promise<void> {
  const deadline = Date.now() + 120_000;
  while ((await request(`${skiff.url}/readyz`, {}, 1000)).status !== 200) {
    if (skiff.exit || Date.now() > deadline) throw new Error("Skiff did not become ready");
    await sleep(200);
  }
}
