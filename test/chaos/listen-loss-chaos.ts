/**
 * The LISTEN-loss sequence of `npm run chaos:db` (`--listen-loss`): a real `src/main.ts` on its embedded PostgreSQL
 * takes site imports until hundreds of applications exist, then its PostgreSQL postmaster is SIGKILLed (Skiff's
 * supervisor restarts it), every LISTEN backend is terminated (`pg_terminate_backend`), and a new import must be
 * answered (2xx) within 20 s, as must every import sent in the next 8 s; then Skiff itself is SIGKILLed and started
 * again on the same data, where a new import must again be answered within 20 s and no import record may stay
 * `pending` (all run within 90 s) (the restarted instance runs what the dead one left). Plain Node (no vitest imports).
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import { api, freePort, live, request, type Skiff, skiffsDatabase, startSkiff } from "./db-chaos.ts";

/** What one run saw. `problems` empty means every check passed. */
export interface ListenLossResult {
  /** Applications when the database was killed. */
  applications: number;
  /** LISTEN backends terminated. */
  terminated: number;
  /** ms to answer the import sent after the LISTEN loss, and its status (0: no answer within 20 s). */
  afterListenLoss: { ms: number; status: number };
  /** Imports sent in the 8 s after it: answered 2xx / sent. */
  following: { answered: number; sent: number };
  /** ms to answer the first import after the kill -9 and restart, and its status. */
  afterRestart: { ms: number; status: number };
  /** Records still pending 90 s after the restart (the runs the dead instance left are run by the new one). */
  pending: number;
  /** ms from the restart being ready to no record pending (or to giving up). */
  drainedMs: number;
  problems: string[];
}

/** Runs the sequence once (see the file comment); never throws for a failed check. */
export async function runListenLoss(options: {
  /** Applications to reach before the kill (default 300). */
  applications?: number;
  progress?: (line: string) => void;
}): Promise<ListenLossResult> {
  const target = options.applications ?? 300;
  const say = options.progress ?? (() => {});
  const dir = await mkdtemp(join(tmpdir(), "skiff-chaos-listen-"));
  const problems: string[] = [];
  const result: ListenLossResult = {
    applications: 0,
    terminated: 0,
    afterListenLoss: { ms: 0, status: 0 },
    following: { answered: 0, sent: 0 },
    afterRestart: { ms: 0, status: 0 },
    pending: 0,
    drainedMs: 0,
    problems,
  };
  const pgPort = await freePort();
  const database = skiffsDatabase(join(dir, "data"), pgPort);
  const env = {
    SKIFF_DATA_DIR: join(dir, "data"),
    SKIFF_EMBEDDED_PG_PORT: String(pgPort),
    SKIFF_HEALTH_INTERVAL: "10",
    // Each import request waits for its run (5 s at most): the load keeps no backlog of runs beyond what is in flight.
    SKIFF_IMPORT_WAIT_MS: "5000",
  };
  let skiff: Skiff = await startSkiff(env, join(dir, "skiff.log"));
  const cleanup = async () => {
    if (!skiff.exit) skiff.child.kill("SIGKILL");
    const left = database.postmaster();
    if (left) process.kill(left, "SIGKILL");
  };
  live.add(cleanup);
  let check: pg.Client | undefined;
  const connectCheck = async () => {
    await check?.end().catch(() => {});
    check = new pg.Client({ connectionString: database.url });
    check.on("error", () => {});
    await check.connect();
  };
  const ready = async (by: number) => {
    while ((await request(`${skiff.url}/readyz`, {}, 1000)).status !== 200) {
      if (skiff.exit || Date.now() > by) throw new Error("Skiff did not become ready");
      await sleep(200);
    }
  };
  let org = "";
  /** Distinct non-2xx answers (status and the start of the body), reported with the problems. */
  const refused = new Set<string>();
  let n = 0;
  const importOnce = async (timeoutMs = 20_000) => {
    const at = Date.now();
    const r = await api(
      skiff,
      "POST",
      "/api/site-import",
      {
        organizationId: org,
        name: `listen-${n++}`,
        source: { type: "docker", dockerImage: "nginx:1.27" },
        port: 80,
      },
      timeoutMs,
    );
    if (r.status && (r.status < 200 || r.status >= 300)) refused.add(`${r.status} ${r.body.slice(0, 200)}`);
    return { ms: Date.now() - at, status: r.status };
  };
  const ok = (status: number) => status >= 200 && status < 300;
  try {
    await ready(Date.now() + 300_000);
    await database.accepting();
    await connectCheck();
    const viewer = await api(skiff, "POST", "/graphql", { query: "{ viewer { activeOrganization { id } } }" });
    org = JSON.parse(viewer.body).data.viewer.activeOrganization.id as string;
    // Load: 16 imports in flight at a time until `target` applications exist (at most 10 minutes).
    const loadBy = Date.now() + 600_000;
    const count = async () => (await check!.query("select count(*)::int as n from applications")).rows[0].n as number;
    result.applications = await count();
    while (result.applications < target && Date.now() < loadBy) {
      await Promise.all(Array.from({ length: 16 }, () => importOnce(30_000)));
      result.applications = await count();
    }
    say(`${result.applications} applications; kill -9 postmaster`);
    const first = database.postmaster();
    if (!first) throw new Error("no postmaster found");
    process.kill(first, "SIGKILL");
    const backBy = Date.now() + 60_000;
    while (!(await database.accepting())) {
      if (Date.now() > backBy) throw new Error("the database was not back within 60 s");
      await sleep(100);
    }
    await connectCheck();
    // The LISTEN connections come back within seconds (the job runner's at most 5 s apart); then they are killed.
    const listening = async () =>
      (await check!.query("select count(*)::int as n from pg_stat_activity where query ilike 'listen%'")).rows[0]
        .n as number;
    const listenBy = Date.now() + 20_000;
    while ((await listening()) < 2 && Date.now() < listenBy) await sleep(200);
    if ((await listening()) < 2) problems.push("the LISTEN connections were not back within 20 s of the database");
    const { rows } = await check!.query(
      "select pg_terminate_backend(pid) from pg_stat_activity where query ilike 'listen%'",
    );
    result.terminated = rows.length;
    say(`database back; ${rows.length} LISTEN backends terminated`);
    await sleep(3000);
    const after = await importOnce();
    result.afterListenLoss = after;
    if (!ok(after.status)) problems.push(`import after the LISTEN loss: status ${after.status} in ${after.ms} ms`);
    const following: Promise<void>[] = [];
    for (const end = Date.now() + 8000; Date.now() < end; await sleep(250)) {
      result.following.sent++;
      following.push(importOnce().then((r) => void (ok(r.status) && result.following.answered++)));
    }
    await Promise.all(following);
    if (result.following.answered < result.following.sent)
      problems.push(
        `${result.following.sent - result.following.answered} of ${result.following.sent} imports unanswered`,
      );
    say("kill -9 Skiff, restart on the same data");
    await check!.end().catch(() => {});
    check = undefined;
    skiff.child.kill("SIGKILL");
    await skiff.exited;
    skiff = await startSkiff(env, join(dir, "skiff-restarted.log"), Number(new URL(skiff.url).port));
    await ready(Date.now() + 300_000);
    const restarted = Date.now();
    const again = await importOnce();
    result.afterRestart = again;
    if (!ok(again.status)) problems.push(`import after the restart: status ${again.status} in ${again.ms} ms`);
    await connectCheck();
    for (;;) {
      const { rows: p } = await check!.query("select count(*)::int as n from site_imports where status = 'pending'");
      result.pending = p[0].n;
      if (result.pending === 0 || Date.now() - restarted > 90_000) break;
      await sleep(500);
    }
    result.drainedMs = Date.now() - restarted;
    if (result.pending) problems.push(`${result.pending} imports pending 90 s after the restart`);
  } catch (error) {
    problems.push(`run failed: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    await check?.end().catch(() => {});
    if (!skiff.exit) {
      skiff.child.kill("SIGTERM");
      await Promise.race([skiff.exited, sleep(20_000)]);
    }
    await cleanup();
    live.delete(cleanup);
  }
  if (refused.size) problems.push(`answers: ${[...refused].slice(0, 3).join(" | ")}`);
  if (problems.length === 0) await rm(dir, { recursive: true, force: true });
  else problems.push(`kept: ${dir}`);
  return result;
}
