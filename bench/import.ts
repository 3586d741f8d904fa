/**
 * `npm run bench:import`: throughput and latency of the site import REST paths on a real server.
 * Starts Skiff (`node src/main.ts`, in its own process) on a scratch database (on DATABASE_URL's server, else an embedded PostgreSQL under
 * `.data/bench`), seeds an organization on the unlimited plan with a container registry and an API key, then
 * drives with autocannon at 100 connections:
 *   1. POST /api/site-import — each request a new site (docker source, postgres database, domain, one variable);
 *   2. GET /api/site-import — the default page of 50 records.
 * Prints requests (imports) per second and p50/p99 latency in milliseconds. The scratch database is dropped
 * at the end. BENCH_SECONDS (default 10) sets the duration of each run, BENCH_CONNECTIONS (default 100) the
 * connections.
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createServer } from "node:net";
import autocannon from "autocannon";
import pg from "pg";
import { ensureDatabase, withDatabase } from "../src/db/connect.ts";
import { startEmbeddedPostgres } from "../src/db/embedded.ts";
import { createKnex } from "../src/db/knex.ts";
import { createOrg, createRegistry } from "../test/helpers/seed.ts";

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 100);

/** A TCP port free on loopback right now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
    probe.on("error", reject);
  });
}

const embedded = process.env.DATABASE_URL
  ? null
  : await startEmbeddedPostgres(".data/bench", Number(process.env.SKIFF_BENCH_PG_PORT ?? 54331));
const adminUrl = process.env.DATABASE_URL ? withDatabase(process.env.DATABASE_URL, "postgres") : embedded!.url;
const scratch = `skiff_bench_${process.pid}`;
const databaseUrl = await ensureDatabase(adminUrl, scratch);

// The server runs in its own process (as `npm start` does), so the load generator does not share its event loop.
const port = await freePort();
const url = `http://127.0.0.1:${port}`;
const server = spawn(
  process.execPath,
  [
    ...(process.env.BENCH_CPU_PROF_DIR ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_CPU_PROF_DIR}`] : []),
    "src/main.ts",
  ],
  {
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      HOST: "127.0.0.1",
      PORT: String(port),
      SKIFF_SECRET: randomBytes(32).toString("hex"),
      LOG_LEVEL: "silent",
      SKIFF_BOOTSTRAP: "false",
    },
    stdio: ["ignore", "inherit", "inherit"],
  },
);
const exited = new Promise((resolve) => server.once("exit", resolve));
const knex = createKnex(databaseUrl, { max: 2 });

try {
  for (let i = 0; ; i++) {
    const ready = await fetch(`${url}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) break;
    if (i > 600) throw new Error("the server did not become ready");
    await new Promise((r) => setTimeout(r, 100));
  }
  const org = await createOrg(knex);
  await createRegistry(knex, org.organizationId);
  const headers = { "content-type": "application/json", authorization: `Bearer ${org.owner.apiKey}` };
  let n = 0;

  const imports = await autocannon({
    url: `${url}/api/site-import`,
    connections,
    duration: seconds,
    requests: [
      {
        method: "POST",
        headers,
        setupRequest: (req) => {
          n += 1;
          const name = `bench-${process.pid}-${n}`;
          return {
            ...req,
            body: JSON.stringify({
              organizationId: org.organizationId,
              name,
              domain: `${name}.bench.example.test`,
              database: { type: "postgres", name: "app", user: "app", password: "bench-password" },
              source: { type: "docker", dockerImage: "nginx:1.27" },
              envVars: { APP_ENV: "bench" },
            }),
          };
        },
      },
    ],
  });
  // autocannon stops counting at the deadline; let the imports still running on the server finish.
  for (let i = 0; i < 300; i++) {
    const running = await knex("site_imports").where({ status: "pending" }).count("* as n").first();
    if (Number(running?.n) === 0) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const succeeded = await knex("site_imports").where({ status: "success" }).count("* as n").first();

  const list = await autocannon({
    url: `${url}/api/site-import`,
    connections,
    duration: seconds,
    headers: { authorization: headers.authorization },
  });

  const line = (label: string, r: autocannon.Result, perSecond: number) =>
    `${label.padEnd(26)} ${perSecond.toFixed(1).padStart(8)}/s   p50 ${String(r.latency.p50).padStart(5)} ms   p99 ${String(
      r.latency.p99,
    ).padStart(5)} ms   2xx ${r["2xx"]}   non-2xx ${r.non2xx}   errors ${r.errors}`;
  console.log(
    `\nSkiff site import benchmark: ${connections} connections, ${seconds} s per run, ${embedded ? "embedded PostgreSQL" : "DATABASE_URL server"}`,
  );
  console.log(line("POST /api/site-import", imports, imports["2xx"] / imports.duration));
  console.log(line("GET /api/site-import", list, list["2xx"] / list.duration));
  console.log(
    `imports recorded as success: ${Number(succeeded?.n ?? 0)} (of ${imports["2xx"] + imports.non2xx} answered)`,
  );
} finally {
  server.kill("SIGTERM");
  await exited;
  await knex.destroy();
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${pg.escapeIdentifier(scratch)} with (force)`);
  await admin.end();
  await embedded?.stop();
}
