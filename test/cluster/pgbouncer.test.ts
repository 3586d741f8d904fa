/**
 * Skiff behind a transaction-mode pooler: request traffic on DATABASE_URL through a real PgBouncer
 * (Debian's `pgbouncer`, `pool_mode = transaction`) in front of the test PostgreSQL, session work (LISTEN/NOTIFY,
 * the job runner, migrations' advisory lock) on DATABASE_SESSION_URL, straight to PostgreSQL. A few requests of
 * every surface — GraphQL, REST, the agent API, sign-in, a subscription — and jobs (a site import, webhook
 * deliveries) all work. Skipped, saying so, when no `pgbouncer` binary is installed; under CI (`.ci/run` installs it)
 * a missing one fails the file.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient } from "graphql-ws";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import WebSocket from "ws";
import type { RunningSkiff } from "../../src/server/start.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { type HttpsReceiver, startHttpsReceiver } from "../helpers/https-receiver.ts";
import { findProgram, skipReason } from "../helpers/required-tool.ts";
import { createAgentTokenFor, createOrg } from "../helpers/seed.ts";
import { gql, startTestServer } from "../helpers/server.ts";
import { postAuth, sessionFor } from "../helpers/session.ts";

/** PgBouncer: $PGBOUNCER, else on PATH, else Debian's /usr/sbin/pgbouncer (as `.ci/run` looks for it). */
const binary = findProgram("PGBOUNCER", ["pgbouncer"], ["/usr/sbin/pgbouncer"]);
const skip = skipReason(
  binary,
  "test/cluster/pgbouncer.test.ts",
  "no pgbouncer binary (apt-get install pgbouncer, as .ci/run does, or set PGBOUNCER)",
);

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Starts PgBouncer in transaction mode in front of `upstream` (any database name); resolves once it answers. */
async function startPgBouncer(upstream: URL) {
  const dir = mkdtempSync(join(tmpdir(), "skiff-pgbouncer-"));
  chmodSync(dir, 0o755);
  const port = await freePort();
  const user = decodeURIComponent(upstream.username || "postgres");
  const password = decodeURIComponent(upstream.password);
  writeFileSync(
    join(dir, "pgbouncer.ini"),
    [
      "[databases]",
      `* = host=${upstream.hostname} port=${upstream.port || 5432} user=${user}${password ? ` password=${password}` : ""}`,
      "[pgbouncer]",
      "listen_addr = 127.0.0.1",
      `listen_port = ${port}`,
      "unix_socket_dir =",
      "auth_type = trust",
      `auth_file = ${join(dir, "users.txt")}`,
      `admin_users = ${user}`,
      "pool_mode = transaction",
      "max_client_conn = 500",
      "default_pool_size = 8",
      "",
    ].join("\n"),
  );
  writeFileSync(join(dir, "users.txt"), `"${user}" ""\n`);
  // PgBouncer refuses to run as root: it then drops to `nobody`.
  const args = process.getuid?.() === 0 ? ["-u", "nobody", join(dir, "pgbouncer.ini")] : [join(dir, "pgbouncer.ini")];
  const child: ChildProcess = spawn(binary!, args, { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr?.setEncoding("utf8").on("data", (c: string) => {
    stderr += c;
    if (process.env.PGBOUNCER_DEBUG) process.stderr.write(c);
  });
  const poolerUrl = (database: string) => {
    const url = new URL(upstream);
    url.hostname = "127.0.0.1";
    url.port = String(port);
    url.pathname = `/${database}`;
    return url.toString();
  };
  for (const by = Date.now() + 10_000; ; ) {
    const c = new pg.Client({ connectionString: poolerUrl("pgbouncer") });
    try {
      await c.connect();
      await c.end();
      break;
    } catch (err) {
      await c.end().catch(() => {});
      if (Date.now() > by || child.exitCode !== null) throw new Error(`pgbouncer did not start: ${err}\n${stderr}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return {
    poolerUrl,
    /** Transactions PgBouncer relayed to `database` so far (its admin console's SHOW STATS). */
    async transactions(database: string): Promise<number> {
      const c = new pg.Client({ connectionString: poolerUrl("pgbouncer") });
      await c.connect();
      try {
        const { rows } = await c.query("SHOW STATS");
        return Number(rows.find((r) => r.database === database)?.total_xact_count ?? 0);
      } finally {
        await c.end();
      }
    },
    async stop() {
      child.kill("SIGTERM");
      if (child.exitCode === null) await new Promise((r) => child.once("exit", r));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

describe.skipIf(skip !== null)("behind PgBouncer in transaction mode", () => {
  let db: TestDatabase;
  let bouncer: Awaited<ReturnType<typeof startPgBouncer>>;
  let skiff: RunningSkiff;
  let receiver: HttpsReceiver;
  let dbName: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    dbName = new URL(db.url).pathname.slice(1);
    bouncer = await startPgBouncer(new URL(inject("adminUrl")));
    receiver = await startHttpsReceiver();
    process.env.NODE_EXTRA_CA_CERTS ??= inject("testTls").caFile;
    skiff = await startTestServer(bouncer.poolerUrl(dbName), {
      DATABASE_SESSION_URL: db.url,
      SKIFF_OUTBOUND_ALLOW: "127.0.0.1",
      SKIFF_DEFAULT_REGISTRY_URL: "docker.io",
      SKIFF_IMPORT_WAIT_MS: "0",
    });
  }, 60_000);
  afterAll(async () => {
    await skiff?.stop();
    await receiver?.close();
    await bouncer?.stop();
    await db?.drop();
  });

  it("answers GraphQL, REST, the agent API and sign-in, and runs jobs and live events", async () => {
    const before = await bouncer.transactions(dbName);
    const org = await createOrg(db.knex);
    const apiKey = org.owner.apiKey;

    // GraphQL: a read and a write.
    const viewer = await gql<{ viewer: { activeOrganization: { id: string } } }>(
      skiff.url,
      "{ viewer { activeOrganization { id } } }",
      {},
      { apiKey },
    );
    expect(viewer.status).toBe(200);
    const organizationId = viewer.data!.viewer.activeOrganization.id;
    const created = await gql(
      skiff.url,
      "mutation($i: CreateProjectInput!) { createProject(input: $i) { id name } }",
      { i: { organizationId, name: "behind-the-pooler" } },
      { apiKey },
    );
    expect(created.errors).toBeUndefined();

    // The agent API (its shared limiter included).
    const token = await createAgentTokenFor(db.knex, org.organizationId, org.owner);
    const agent = await fetch(`${skiff.url}/api/agent/projects`, { headers: { authorization: `Bearer ${token}` } });
    expect(agent.status).toBe(200);
    expect(JSON.stringify(await agent.json())).toContain("behind-the-pooler");

    // Sign-in (better-auth's pool, its attempt limits) and the session it made.
    const cookie = await sessionFor(db.knex, skiff.url, org.owner);
    const session = await fetch(`${skiff.url}/api/auth/get-session`, { headers: { cookie } });
    expect(session.status).toBe(200);
    expect(cookie).toMatch(/(^|; )skiff\.session_token=[^;]+/);
    expect(((await session.json()) as { user: { email: string } }).user.email).toBe(org.owner.email);

    // A burst of sign-in attempts: the attempt limiters' statements run on whichever server connection the pooler
    // picks, so a statement named (prepared) on one connection and used on another would answer 500.
    const attempts = await Promise.all(
      Array.from({ length: 3 }, () =>
        Promise.all(
          Array.from({ length: 12 }, (_, n) =>
            postAuth(skiff.url, "/sign-in/email", { email: `nobody-${n}@example.test`, password: "wrong-password" }),
          ),
        ),
      ),
    );
    expect(new Set(attempts.flat().map((r) => r.status))).toEqual(new Set([401]));

    // A subscription (LISTEN on the session URL) seeing a site import run by a job.
    const updates: string[] = [];
    const client = createClient({
      url: `${skiff.url.replace("http", "ws")}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${apiKey}` },
    });
    const dispose = await new Promise<() => void>((resolve) => {
      const d = client.subscribe(
        { query: "subscription { siteImportUpdated { importId status } }" },
        {
          next: (m) =>
            void updates.push((m.data as { siteImportUpdated: { status: string } }).siteImportUpdated.status),
          error: () => {},
          complete: () => {},
        },
      );
      client.on("connected", () => setTimeout(() => resolve(d), 300));
    });
    try {
      const imported = await fetch(`${skiff.url}/api/site-import`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${apiKey}` },
        body: JSON.stringify({
          organizationId,
          name: "pooled-import",
          source: { type: "docker", dockerImage: "nginx:1.27" },
          port: 80,
        }),
      });
      expect([200, 201, 202]).toContain(imported.status);
      for (const by = Date.now() + 30_000; !updates.includes("success") && Date.now() < by; ) {
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(updates).toContain("success");
    } finally {
      dispose();
      await client.dispose();
    }

    // Webhook deliveries: a REST write enqueues jobs, the runner (session URL) sends them.
    const { rows } = await db.knex.raw("select database_id from organizations where id = ?", [org.organizationId]);
    const databaseId = rows[0].database_id as number;
    const rest = (path: string, body: unknown) =>
      fetch(`${skiff.url}/api/v1/orgs/${databaseId}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${apiKey}` },
        body: JSON.stringify(body),
      });
    const hook = await rest("/webhooks", { url: `${receiver.url}/hook`, events: ["course_completed"] });
    expect(hook.status).toBe(201);
    const deliveries: string[] = [];
    for (let n = 0; n < 5; n++) {
      const res = await rest("/events", {
        event: "course_completed",
        data: {
          user: { user_uuid: `u${n}`, email: `u${n}@skiff.test`, username: `u${n}` },
          course: { course_uuid: `c${n}`, name: "Pooled" },
        },
      });
      expect(res.status).toBe(202);
      for (const d of ((await res.json()) as { deliveries: Array<{ delivery_id: string }> }).deliveries) {
        deliveries.push(d.delivery_id);
      }
    }
    await receiver.waitForRequests(deliveries.length, 20_000);
    expect(new Set(receiver.requests.map((r) => String(r.headers["x-webhook-delivery"])))).toEqual(new Set(deliveries));

    // A burst of webhook creates in another organization: the create limit's statements (rate-limiter-flexible names
    // them) run on Skiff's own pool, on whichever server connection PgBouncer picks.
    const other = await createOrg(db.knex);
    const { rows: otherRows } = await db.knex.raw("select database_id from organizations where id = ?", [
      other.organizationId,
    ]);
    const creates = await Promise.all(
      Array.from({ length: 20 }, () =>
        fetch(`${skiff.url}/api/v1/orgs/${otherRows[0].database_id}/webhooks`, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${other.owner.apiKey}` },
          body: JSON.stringify({ url: `${receiver.url}/other`, events: ["course_completed"] }),
        }),
      ),
    );
    expect(creates.map((r) => r.status)).toEqual(Array(20).fill(201));

    // All of that went through the pooler.
    expect((await bouncer.transactions(dbName)) - before).toBeGreaterThan(20);
  }, 90_000);
});
