/**
 * Database chaos: one run kills the real PostgreSQL postmaster with SIGKILL while a real `src/main.ts`
 * process serves a steady load — site imports (each queuing a deployment job), webhook events delivered to a
 * loopback HTTPS receiver, and an open `siteImportUpdated` subscription — then brings the database back and checks
 * what an operator would: the process stayed alive, `/readyz` was 503 during the outage and 200 soon after, no
 * import stayed `pending`, every webhook attempt the receiver saw is logged exactly once and no accepted event was
 * lost, the subscription receives events again, sign-in works, and one SIGTERM ends the process in bounded time.
 *
 * Variants:
 * - `url`: Skiff on DATABASE_URL; the harness runs that PostgreSQL itself and restarts it after `outageMs`.
 * - `embedded`: Skiff's own embedded cluster; Skiff's supervisor restarts it. The harness keeps the outage going
 *   for `outageMs` by killing every postmaster that comes up meanwhile (a crash loop), then lets it stay.
 *
 * Used by test/chaos/db-kill.test.ts (one run per variant in `npm test`) and scripts/chaos-db.ts (`npm run
 * chaos:db`: many runs, a table). Plain Node (no vitest imports): the script runs it outside the test runner.
 */
import type { ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createWriteStream, readFileSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { createClient } from "graphql-ws";
import pg from "pg";
import WebSocket from "ws";
import { ensureDatabase, withDatabase } from "../../src/db/connect.ts";
import { type EmbeddedServer, startEmbeddedPostgres } from "../../src/db/embedded.ts";
import { isAlive } from "../../src/db/embedded-orphan.ts";
import { readPassword } from "../../src/db/embedded-password.ts";
import { startCountingReceiver } from "../helpers/counting-receiver.ts";
import { spawnMain } from "../helpers/process.ts";
import type { TestCaFiles } from "../helpers/test-ca.ts";

/**
 * How long after the database is back the run waits for quiescence (no import pending, every accepted event
 * delivered), ms: the outage leaves a backlog (each import queues a deployment run, the webhooks queue behind it) that
 * a 2-core machine running the rest of the suite beside it drains in more than 30 s.
 */
const SETTLE_MS = 60_000;

/** What one run does. */
export interface ChaosOptions {
  variant: "url" | "embedded";
  /** How long the database (or, with `kill: "skiff"`, Skiff) stays down after the kill, ms. */
  outageMs: number;
  /**
   * What is killed with SIGKILL: the PostgreSQL postmaster (default), or the Skiff process itself mid-import, then
   * started again on the same data and port (a restarted instance resumes what the dead one held).
   */
  kill?: "postgres" | "skiff";
  /** When the one SIGTERM is sent: after the checks (`end`, default), during the outage, or right after recovery. */
  sigterm?: "end" | "during" | "after";
  /** The test CA (NODE_EXTRA_CA_CERTS of Skiff; the receiver's certificate). */
  tls: Omit<TestCaFiles, "dir">;
  /** Site imports started per second (default 20). */
  importsPerSecond?: number;
  /**
   * Longest wait for `/readyz` 200 after recovery that passes, ms (default 5000, the goal `npm run chaos:db` holds on
   * a machine of its own). After the outage the process catches up on its backlog (resumed imports, their deployment
   * jobs, webhooks) on one thread; beside other CPU-bound work the first 200 comes later.
   */
  readyWithinMs?: number;
  /** Progress lines (default: none). */
  progress?: (line: string) => void;
}

/** What one run saw. `problems` empty means every check passed. */
export interface ChaosResult {
  variant: ChaosOptions["variant"];
  kill: NonNullable<ChaosOptions["kill"]>;
  outageMs: number;
  sigterm: NonNullable<ChaosOptions["sigterm"]>;
  /** The Skiff process ended before the SIGTERM (with its exit code or signal), or null. */
  died: string | null;
  /**
   * `/readyz` answers to requests sent while the database was down (503s: sent after the kill and before it accepted
   * again; 200s: sent after the first second and answered before the outage's end).
   */
  readyDuringOutage: { unavailable: number; ready: number };
  /** ms from the database accepting connections again to the first `/readyz` 200; null when never. */
  readyAfterMs: number | null;
  /** Imports still `pending` {@link SETTLE_MS} after recovery. */
  pending: number;
  imports: { started: number; answered: number };
  /**
   * `doubled`: deliveries whose receiver-side attempts differ from their log (or with an attempt number logged
   * twice). After a kill of Skiff itself an attempt cut mid-flight is seen but never logged: those count as `cut`.
   */
  webhooks: {
    accepted: number;
    delivered: number;
    lost: number;
    attemptsSeen: number;
    attemptsLogged: number;
    doubled: number;
    cut: number;
  };
  /** ms from recovery to the first site import answered 2xx afterwards; null when none was. */
  importAfterMs: number | null;
  /** A `siteImportUpdated` event arrived after recovery on the subscription opened before the kill. */
  subscriptionResumed: boolean;
  signIn: boolean;
  /**
   * A signed-in reader's /graphql statuses under the load (the session cookie, remembered by Skiff after its first
   * read), and whether a read answered 200 after recovery; any status but 200 or 503 (or no answer) is a problem.
   */
  sessionReads: { ok: number; unavailable: number; other: Record<string, number>; okAfter: boolean };
  /** ms from SIGTERM to exit, and the exit code; null exit when it had to be killed. */
  shutdown: { ms: number; code: number | null } | null;
  /** Fatal/uncaught lines from Skiff's output. */
  crashLines: string[];
  problems: string[];
}

const SHUTDOWN_TIMEOUT_S = 5;
const EMAIL = "chaos@skiff.test";
const PASSWORD = "chaos-password-1";
export const API_KEY = `skiff_chaos_${randomBytes(12).toString("hex")}`;

/** Cleanups of the runs under way (their Skiff processes and database servers). */
export const live = new Set<() => Promise<void>>();

/** Kills what the runs under way started (for a script interrupted by a signal). */
export async function stopAllRuns(): Promise<void> {
  await Promise.all([...live].map((cleanup) => cleanup().catch(() => {})));
}

/** A free TCP port on loopback. */
export async function freePort(): Promise<number> {
  const { createServer: tcp } = await import("node:net");
  return new Promise((resolve, reject) => {
    const s = tcp().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    });
    s.on("error", reject);
  });
}

/** The PostgreSQL the run kills: its postmaster pid, and (url variant) restarting it. */
export interface Database {
  /** URL of database `skiff` (for the checks). */
  url: string;
  postmaster(): number | undefined;
  /** Accepts connections (a real login). */
  accepting(): Promise<boolean>;
  /** url variant: start it again (retrying while the old backends let go of shared memory). */
  restart?(): Promise<void>;
  stop(): Promise<void>;
}

/** postmaster.pid's first line when its 8th says `ready`. */
function readyPostmaster(clusterDir: string): number | undefined {
  try {
    const lines = readFileSync(join(clusterDir, "postmaster.pid"), "utf8").split("\n");
    const pid = Number(lines[0]);
    return pid > 0 && isAlive(pid) ? pid : undefined;
  } catch {
    return undefined;
  }
}

async function canLogin(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1000 });
  client.on("error", () => {});
  try {
    await client.connect();
    await client.query("select 1");
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

/** url variant: a PostgreSQL of the harness's own (the embedded binaries, its own directory and port). */
export async function ownDatabase(dir: string, port: number): Promise<Database> {
  let server: EmbeddedServer = await startEmbeddedPostgres(dir, port, { durable: false });
  const url = await ensureDatabase(server.url, "skiff");
  return {
    url,
    postmaster: () => readyPostmaster(join(dir, "postgres")),
    accepting: () => canLogin(url),
    async restart() {
      // The killed cluster's server still holds the data directory's lock: released first, or the new start
      // would find the directory in use by this very process.
      await server.stop();
      for (let attempt = 1; ; attempt++) {
        try {
          server = await startEmbeddedPostgres(dir, port, { durable: false });
          return;
        } catch (error) {
          if (attempt >= 20) throw error;
          await sleep(250);
        }
      }
    },
    stop: () => server.stop(),
  };
}

/** embedded variant: Skiff's own cluster in `dataDir`. */
export function skiffsDatabase(dataDir: string, port: number): Database {
  let url = "";
  const resolveUrl = async () => {
    url ||= `postgres://postgres:${await readPassword(dataDir)}@127.0.0.1:${port}/skiff`;
    return url;
  };
  return {
    get url() {
      return url;
    },
    postmaster: () => readyPostmaster(join(dataDir, "postgres")),
    accepting: async () => canLogin(await resolveUrl()),
    stop: async () => {},
  };
}

/** A started Skiff process; its output goes to `logFile`. */
export interface Skiff {
  child: ChildProcess;
  url: string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  exit: { code: number | null; signal: NodeJS.Signals | null } | null;
  logFile: string;
}

export async function startSkiff(env: Record<string, string>, logFile: string, port?: number): Promise<Skiff> {
  port ??= await freePort();
  const out = createWriteStream(logFile);
  const child = spawnMain({
    PORT: String(port),
    SKIFF_BASE_URL: `http://127.0.0.1:${port}`,
    SKIFF_BOOTSTRAP_EMAIL: EMAIL,
    SKIFF_BOOTSTRAP_PASSWORD: PASSWORD,
    SKIFF_BOOTSTRAP_API_KEY: API_KEY,
    SKIFF_DEFAULT_REGISTRY_URL: "docker.io",
    SKIFF_OUTBOUND_ALLOW: "127.0.0.1",
    SKIFF_IMPORT_WAIT_MS: "1000",
    SKIFF_SHUTDOWN_TIMEOUT: String(SHUTDOWN_TIMEOUT_S),
    // No sandbox payment gateway beside it (it would take a fixed port).
    SKIFF_GATEWAY_URL: "https://gateway.skiff.test",
    ...env,
  });
  child.stdout?.pipe(out);
  child.stderr?.pipe(out);
  const skiff: Skiff = {
    child,
    url: `http://127.0.0.1:${port}`,
    exit: null,
    logFile,
    exited: new Promise((resolve) =>
      child.once("exit", (code, signal) => {
        skiff.exit = { code, signal };
        resolve({ code, signal });
      }),
    ),
  };
  return skiff;
}

/**
 * fetch with a deadline; a network error or timeout resolves to status 0. `cookie`: the answer's `set-cookie`
 * values as a `cookie` header.
 */
export async function request(
  url: string,
  init: RequestInit = {},
  timeoutMs = 5000,
): Promise<{ status: number; body: string; cookie: string }> {
  try {
    const res = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    const cookie = res.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    return { status: res.status, body: await res.text(), cookie };
  } catch {
    return { status: 0, body: "", cookie: "" };
  }
}

export function api(skiff: Skiff, method: string, path: string, body?: unknown, timeoutMs?: number) {
  return request(
    `${skiff.url}${path}`,
    {
      method,
      headers: { "content-type": "application/json", authorization: `Bearer ${API_KEY}` },
      body: body === undefined ? undefined : JSON.stringify(body),
    },
    timeoutMs,
  );
}

/** Runs one chaos run (see the file comment). Never throws for a failed check: see `problems`. */
export async function runChaos(options: ChaosOptions): Promise<ChaosResult> {
  const { variant, outageMs, tls } = options;
  const sigterm = options.sigterm ?? "end";
  const kill = options.kill ?? "postgres";
  const say = options.progress ?? (() => {});
  const dir = await mkdtemp(join(tmpdir(), `skiff-chaos-${variant}-`));
  const problems: string[] = [];
  const result: ChaosResult = {
    variant,
    kill,
    outageMs,
    sigterm,
    died: null,
    readyDuringOutage: { unavailable: 0, ready: 0 },
    readyAfterMs: null,
    pending: 0,
    imports: { started: 0, answered: 0 },
    webhooks: { accepted: 0, delivered: 0, lost: 0, attemptsSeen: 0, attemptsLogged: 0, doubled: 0, cut: 0 },
    importAfterMs: null,
    subscriptionResumed: false,
    signIn: false,
    sessionReads: { ok: 0, unavailable: 0, other: {}, okAfter: false },
    shutdown: null,
    crashLines: [],
    problems,
  };
  const receiver = await startCountingReceiver(tls);
  const pgPort = await freePort();
  let database: Database;
  let skiff: Skiff;
  const env: Record<string, string> = { NODE_EXTRA_CA_CERTS: tls.caFile };
  if (variant === "url") {
    database = await ownDatabase(join(dir, "pg"), pgPort);
    env.DATABASE_URL = database.url;
  } else {
    database = skiffsDatabase(join(dir, "data"), pgPort);
    env.SKIFF_DATA_DIR = join(dir, "data");
    env.SKIFF_EMBEDDED_PG_PORT = String(pgPort);
  }
  skiff = await startSkiff(env, join(dir, "skiff.log"));
  const cleanup = async () => {
    if (!skiff.exit) skiff.child.kill("SIGKILL");
    await database.stop().catch(() => {});
    const left = database.postmaster();
    if (left) process.kill(left, "SIGKILL");
  };
  live.add(cleanup);
  let stopLoad = false;
  /** Skiff itself was killed and is being started again (kill: "skiff"). */
  let restarting = false;
  const logFiles = [join(dir, "skiff.log")];
  const tasks: Promise<unknown>[] = [];
  let disposeSubscription = () => {};
  try {
    // Ready, then the organization, a webhook on course_completed and a subscription.
    const readyBy = Date.now() + 120_000;
    while ((await request(`${skiff.url}/readyz`, {}, 1000)).status !== 200) {
      if (skiff.exit || Date.now() > readyBy) throw new Error(`Skiff did not become ready:\n${await tail(skiff)}`);
      await sleep(200);
    }
    await database.accepting();
    const viewer = await api(skiff, "POST", "/graphql", {
      query: "{ viewer { activeOrganization { id databaseId } } }",
    });
    const org = JSON.parse(viewer.body).data.viewer.activeOrganization as { id: string; databaseId: number };
    const hook = await api(skiff, "POST", `/api/v1/orgs/${org.databaseId}/webhooks`, {
      url: receiver.url,
      events: ["course_completed"],
    });
    if (hook.status !== 201) throw new Error(`webhook not created: ${hook.status} ${hook.body}`);
    const webhookId = JSON.parse(hook.body).webhook_uuid as string;
    const updates: number[] = [];
    const client = createClient({
      url: `${skiff.url.replace("http", "ws")}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${API_KEY}` },
      retryAttempts: Number.POSITIVE_INFINITY,
      shouldRetry: () => true,
      retryWait: () => sleep(500),
    });
    disposeSubscription = client.subscribe(
      { query: "subscription { siteImportUpdated { status } }" },
      { next: () => void updates.push(Date.now()), error: () => {}, complete: () => {} },
    );
    disposeSubscription = ((unsubscribe) => () => {
      unsubscribe();
      Promise.resolve(client.dispose()).catch(() => {});
    })(disposeSubscription);

    // The load: imports and webhook events, as long as `stopLoad` is false.
    const accepted = new Set<string>();
    const importsOk: number[] = [];
    let seq = 0;
    const rate = options.importsPerSecond ?? 20;
    const loadImports = async () => {
      while (!stopLoad) {
        const n = seq++;
        result.imports.started++;
        tasks.push(
          api(
            skiff,
            "POST",
            "/api/site-import",
            {
              organizationId: org.id,
              name: `chaos-${n}`,
              source: { type: "docker", dockerImage: "nginx:1.27" },
              envVars: { N: String(n) },
              port: 80,
            },
            30_000,
          ).then((r) => {
            if (r.status < 200 || r.status >= 300) return;
            result.imports.answered++;
            importsOk.push(Date.now());
          }),
        );
        await sleep(1000 / rate);
      }
    };
    const loadEvents = async () => {
      while (!stopLoad) {
        const n = seq++;
        tasks.push(
          api(
            skiff,
            "POST",
            `/api/v1/orgs/${org.databaseId}/events`,
            {
              event: "course_completed",
              data: {
                user: { user_uuid: `u${n}`, email: `u${n}@skiff.test`, username: `u${n}` },
                course: { course_uuid: `c${n}`, name: "Chaos" },
              },
            },
            30_000,
          ).then((r) => {
            if (r.status !== 202) return;
            for (const d of JSON.parse(r.body).deliveries as Array<{ delivery_id: string }>)
              accepted.add(d.delivery_id);
          }),
        );
        await sleep(200);
      }
    };
    // /readyz every 100 ms, with the times each request was sent and answered. The client waits 3 s, well past the
    // check's own 800 ms bound, so that a loaded machine's slow answer still counts as an answer.
    const readiness: Array<{ at: number; answeredAt: number; status: number }> = [];
    const pollReady = async () => {
      while (!stopLoad || sigterm !== "end") {
        if (skiff.exit && !restarting) return;
        const at = Date.now();
        const { status } = await request(`${skiff.url}/readyz`, {}, 3000);
        readiness.push({ at, answeredAt: Date.now(), status });
        await sleep(100);
      }
    };
    // A signed-in reader (the dashboard's way: the session cookie), every 100 ms.
    const signedIn = await request(`${skiff.url}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: skiff.url },
      body: JSON.stringify({ email: EMAIL, password: PASSWORD }),
    });
    if (signedIn.status !== 200) throw new Error(`sign-in before the kill: ${signedIn.status} ${signedIn.body}`);
    const cookie = signedIn.cookie;
    const sessionRead = () =>
      request(
        `${skiff.url}/graphql`,
        {
          method: "POST",
          headers: { "content-type": "application/json", cookie },
          body: JSON.stringify({ query: "{ viewer { activeOrganization { id } } projects(first: 5) { totalCount } }" }),
        },
        10_000,
      );
    const sessionOkAt: number[] = [];
    const loadSessionReads = async () => {
      while (!stopLoad) {
        if (!restarting) {
          const { status } = await sessionRead();
          const reads = result.sessionReads;
          if (status === 200) {
            reads.ok++;
            sessionOkAt.push(Date.now());
          } else if (status === 503) reads.unavailable++;
          // No answer is expected only while Skiff itself is down (kill: "skiff").
          else if (status !== 0 || kill === "postgres") reads.other[status] = (reads.other[status] ?? 0) + 1;
        }
        await sleep(100);
      }
    };
    const loops = [loadImports(), loadEvents(), pollReady(), loadSessionReads()];
    await sleep(3000);

    // The kill, the outage, the recovery.
    const first = database.postmaster();
    if (!first) throw new Error("no postmaster found");
    const killedAt = Date.now();
    if (kill === "skiff") {
      say(`kill -9 Skiff ${skiff.child.pid}`);
      restarting = true;
      skiff.child.kill("SIGKILL");
      await skiff.exited;
      await sleep(outageMs);
      logFiles.push(join(dir, "skiff-restarted.log"));
      skiff = await startSkiff(env, logFiles.at(-1)!, Number(new URL(skiff.url).port));
      restarting = false;
    } else {
      say(`kill -9 postmaster ${first}`);
      process.kill(first, "SIGKILL");
    }
    let term: Promise<void> | undefined;
    const sendTerm = () => {
      const at = Date.now();
      skiff.child.kill("SIGTERM");
      term = (async () => {
        const limit = (SHUTDOWN_TIMEOUT_S + 5) * 1000;
        const exit = await Promise.race([skiff.exited, sleep(limit + 30_000).then(() => null)]);
        result.shutdown = { ms: Date.now() - at, code: exit ? exit.code : null };
        if (!exit) skiff.child.kill("SIGKILL");
        if (!exit || Date.now() - at > limit) problems.push(`SIGTERM took ${Date.now() - at} ms (limit ${limit})`);
        else if (exit.code !== 0) problems.push(`exit code ${exit.code} after SIGTERM`);
      })();
    };
    while (kill === "postgres" && Date.now() - killedAt < outageMs && !(term && skiff.exit)) {
      if (variant === "embedded") {
        const again = database.postmaster();
        if (again && again !== first) process.kill(again, "SIGKILL");
      }
      if (sigterm === "during" && !term && Date.now() - killedAt > outageMs / 2) sendTerm();
      await sleep(20);
    }
    const outageEnd = Date.now();
    if (database.restart && kill === "postgres") await database.restart();
    // Skiff's own cluster ended with Skiff (SIGTERM during the outage): nothing is to come back.
    const gone = variant === "embedded" && term !== undefined && skiff.exit !== null;
    let backAt = 0;
    const backBy = Date.now() + 60_000;
    // After a kill of Skiff, recovery is the restarted instance answering (its cluster may be restarting first).
    const back = () =>
      kill === "skiff" ? request(`${skiff.url}/readyz`, {}, 1000).then((r) => r.status === 200) : database.accepting();
    while (!gone && !backAt && Date.now() < backBy) {
      if (await back()) backAt = Date.now();
      else await sleep(50);
    }
    // Any 503 to a request sent between the kill and the database's return shows the outage; a 200 counts against
    // readiness only when it was asked and answered inside the outage, after the first second.
    const until = backAt || Date.now();
    result.readyDuringOutage = {
      unavailable: readiness.filter((r) => r.status === 503 && r.at > killedAt && r.at < until).length,
      ready: readiness.filter((r) => r.status === 200 && r.at > killedAt + 1000 && r.answeredAt < outageEnd).length,
    };
    if (kill === "skiff" && backAt) await database.accepting();
    say(`${kill === "skiff" ? "Skiff ready again" : "database back"} after ${backAt - killedAt} ms`);
    if (!backAt && !gone)
      problems.push(`the ${kill === "skiff" ? "restarted Skiff" : "database"} was not back within 60 s`);
    if (sigterm === "after") sendTerm();
    if (term) {
      stopLoad = true;
      await term;
      await Promise.allSettled(loops);
    } else {
      await sleep(8000);
      stopLoad = true;
      await Promise.allSettled(loops);
      await Promise.allSettled(tasks);
      const firstReady = readiness.find((r) => r.at >= backAt && r.status === 200);
      result.readyAfterMs = firstReady ? firstReady.at - backAt : null;
      const firstImport = importsOk.find((at) => at >= backAt);
      result.importAfterMs = firstImport ? firstImport - backAt : null;
      // Quiescence: no import pending, every accepted event delivered (at most SETTLE_MS after recovery).
      const check = new pg.Client({ connectionString: database.url || withDatabase(env.DATABASE_URL!, "skiff") });
      await check.connect();
      try {
        const settleBy = backAt + SETTLE_MS;
        for (;;) {
          const { rows } = await check.query("select count(*)::int as n from site_imports where status = 'pending'");
          result.pending = rows[0].n;
          const lost = [...accepted].filter((id) => !receiver.seen.has(id)).length;
          if ((result.pending === 0 && lost === 0) || Date.now() > settleBy) break;
          await sleep(250);
        }
        await sleep(1500); // attempts in flight get their log row
        const { rows: logged } = await check.query(
          "select a.delivery_id, count(*)::int as n, count(distinct a.attempt)::int as distinct_attempts " +
            "from webhook_delivery_attempts a where a.endpoint_id = $1 group by a.delivery_id",
          [webhookId],
        );
        const log = new Map(logged.map((r) => [r.delivery_id as string, r]));
        result.webhooks.accepted = accepted.size;
        result.webhooks.delivered = [...accepted].filter((id) => receiver.seen.has(id)).length;
        result.webhooks.lost = accepted.size - result.webhooks.delivered;
        result.webhooks.attemptsSeen = [...receiver.seen.values()].reduce((a, b) => a + b, 0);
        result.webhooks.attemptsLogged = logged.reduce((a, r) => a + (r.n as number), 0);
        for (const [id, n] of receiver.seen) {
          const row = log.get(id);
          const logged = row?.n ?? 0;
          if (row && row.distinct_attempts !== row.n) result.webhooks.doubled++;
          else if (kill === "skiff" && logged === n - 1) result.webhooks.cut++;
          else if (logged !== n) result.webhooks.doubled++;
        }
      } finally {
        await check.end();
      }
      result.subscriptionResumed = updates.some((at) => at > backAt);
      result.sessionReads.okAfter = sessionOkAt.some((at) => at > backAt);
      if (!result.sessionReads.okAfter) problems.push("no signed-in read answered 200 after recovery");
      const others = Object.entries(result.sessionReads.other);
      if (others.length) problems.push(`signed-in reads answered ${others.map(([k, n]) => `${k} ×${n}`).join(", ")}`);
      const signIn = await request(`${skiff.url}/api/auth/sign-in/email`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: skiff.url },
        body: JSON.stringify({ email: EMAIL, password: PASSWORD }),
      });
      result.signIn = signIn.status === 200;
      if (!skiff.exit) sendTerm();
      await term;
    }
    if (skiff.exit && !result.shutdown) result.died = `${skiff.exit.signal ?? `code ${skiff.exit.code}`}`;
  } catch (error) {
    problems.push(`run failed: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    stopLoad = true;
    disposeSubscription();
    if (!skiff.exit) {
      skiff.child.kill("SIGKILL");
      await skiff.exited;
    }
    await database.stop().catch(() => {});
    // Skiff's own cluster when its shutdown did not stop it (that is a problem of its own).
    const left = database.postmaster();
    if (left) {
      problems.push(`PostgreSQL ${left} still running after Skiff exited`);
      process.kill(left, "SIGKILL");
    }
    await receiver.close();
    live.delete(cleanup);
  }
  const output = (await Promise.all(logFiles.map((f) => readFile(f, "utf8").catch(() => "")))).join("\n");
  const complete = output.split("\n").find((line) => line.includes('"msg":"shutdown complete"'));
  if (complete) say(`shutdown steps: ${JSON.stringify(JSON.parse(complete).steps)}`);
  result.crashLines = output
    .split("\n")
    .filter((line) => /"level":60|Unhandled|uncaught|^Error|^\s+at /i.test(line) && !/"level":(30|40)/.test(line))
    .slice(0, 10);
  if (result.died) problems.push(`Skiff died: ${result.died}`);
  if (result.crashLines.length) problems.push(`crash output: ${result.crashLines[0]}`);
  if (sigterm === "end") {
    if (result.readyDuringOutage.unavailable === 0 && outageMs >= 1500)
      problems.push("/readyz never 503 in the outage");
    if (result.readyAfterMs === null || result.readyAfterMs > (options.readyWithinMs ?? 5000)) {
      problems.push(`/readyz 200 only ${result.readyAfterMs} ms after recovery`);
    }
    if (result.pending) problems.push(`${result.pending} imports pending ${SETTLE_MS / 1000} s after recovery`);
    if (result.importAfterMs === null || result.importAfterMs > 20_000) {
      problems.push(`no import answered within 20 s of recovery (${result.importAfterMs} ms)`);
    }
    if (result.webhooks.lost) problems.push(`${result.webhooks.lost} webhook deliveries lost`);
    if (result.webhooks.doubled) problems.push(`${result.webhooks.doubled} deliveries not logged once per attempt`);
    if (!result.subscriptionResumed) problems.push("no subscription event after recovery");
    if (!result.signIn) problems.push("sign-in failed after recovery");
  }
  if (problems.length === 0) await rm(dir, { recursive: true, force: true });
  else problems.push(`kept: ${dir}`);
  return result;
}

async function tail(skiff: Skiff): Promise<string> {
  return (await readFile(skiff.logFile, "utf8").catch(() => "")).split("\n").slice(-20).join("\n");
}
