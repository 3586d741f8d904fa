/**
 * Operator commands: `npm run skiff -- <command>` (README "Sign-in setup").
 *
 *   reset-2fa <email>               turn two-factor authentication off for an account (platform administrator)
 *   outbox [--to <email>] [--limit <n>]   print the newest mails of the local outbox (when SMTP_URL is unset)
 *   jobs [--failed | --queued] [--limit <n>]   list background jobs: name, state, attempts, run at, last error
 *
 * Uses DATABASE_URL, or the embedded PostgreSQL of SKIFF_DATA_DIR: the running server's when it answers (on the port
 * its postmaster.pid names, else SKIFF_EMBEDDED_PG_PORT), else started for the command and stopped afterwards (never made: a directory without one
 * is an error). Exit codes: 0 done, 1 failure (e.g. unknown account, no Skiff database), 2 usage error.
 */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import { resetTwoFactor } from "./auth/two-factor-reset.ts";
import { type Config, loadConfig } from "./config.ts";
import { resolveDatabase } from "./db/connect.ts";
import { embeddedUrl } from "./db/embedded-password.ts";
import { createKnex, migratedOnce } from "./db/knex.ts";
import { formatJobs, listJobs } from "./jobs/job-list.ts";
import { readOutbox } from "./modules/mail/index.ts";

const USAGE = `Usage: npm run skiff -- <command>
  reset-2fa <email>                    turn two-factor authentication off for an account
  outbox [--to <email>] [--limit <n>]  print the newest mails of the local outbox (default 10)
  jobs [--failed | --queued] [--limit <n>]
                                       list background jobs, failed first (default 50): name, state,
                                       attempts, run at, last error
`;

/**
 * The port the embedded PostgreSQL of `dataDir` listens on while it runs: the fourth line of its `postmaster.pid`
 * (PostgreSQL's own record), so a server started with another SKIFF_EMBEDDED_PG_PORT is found without repeating it.
 * Null when it is not running (no such file) or the line is not a port.
 */
async function runningEmbeddedPort(dataDir: string): Promise<number | null> {
  const text = await readFile(join(dataDir, "postgres", "postmaster.pid"), "utf8").catch(() => null);
  const port = Number(text?.split("\n")[3]);
  return Number.isInteger(port) && port > 0 && port < 65536 ? port : null;
}

/** URL of the embedded database of a running server, or null when nothing answers there. */
async function runningEmbeddedUrl(config: Config): Promise<string | null> {
  const port = (await runningEmbeddedPort(config.SKIFF_DATA_DIR)) ?? config.SKIFF_EMBEDDED_PG_PORT;
  const url = await embeddedUrl(config.SKIFF_DATA_DIR, port, "skiff").catch(() => null);
  if (!url) return null;
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.end();
    return url;
  } catch {
    return null;
  }
}

/**
 * Runs `work` with a Knex handle on the application database, then releases everything it started.
 * @throws Error (exit 1) when there is no Skiff database to read: no DATABASE_URL and no embedded cluster in
 * SKIFF_DATA_DIR (a command never makes one), or a database Skiff has not migrated yet.
 */
async function withKnex<T>(config: Config, work: (knex: ReturnType<typeof createKnex>) => Promise<T>): Promise<T> {
  const running = config.DATABASE_URL ? null : await runningEmbeddedUrl(config);
  if (!config.DATABASE_URL && !running && !existsSync(join(config.SKIFF_DATA_DIR, "postgres", "PG_VERSION"))) {
    throw new Error(
      `No Skiff database here: ${resolve(config.SKIFF_DATA_DIR)} holds no embedded PostgreSQL. Run the command ` +
        "with the server's DATABASE_URL, or with SKIFF_DATA_DIR set to its data directory.",
    );
  }
  const target = running ? { url: running, stop: async () => {} } : await resolveDatabase(config);
  const knex = createKnex(target.url, { max: 2 });
  try {
    if (!(await migratedOnce(knex)))
      throw new Error("This database holds no Skiff schema yet: start the server on it once.");
    return await work(knex);
  } finally {
    await knex.destroy();
    await target.stop();
  }
}

/** Runs one command; @returns the process exit code (2 for arguments `parseArgs` refuses, with the usage). */
export async function runCli(argv: string[], out = process.stdout, err = process.stderr): Promise<number> {
  try {
    return await runCommand(argv, out, err);
  } catch (e) {
    // An unknown option, a missing option value or a stray argument: a usage error.
    if ((e as NodeJS.ErrnoException).code?.startsWith("ERR_PARSE_ARGS_")) {
      err.write(`${(e as Error).message}\n${USAGE}`);
      return 2;
    }
    throw e;
  }
}

async function runCommand(argv: string[], out: NodeJS.WritableStream, err: NodeJS.WritableStream): Promise<number> {
  const [command, ...rest] = argv;
  const config = loadConfig();
  if (command === "reset-2fa") {
    const email = rest[0];
    if (!email || rest.length > 1) {
      err.write(USAGE);
      return 2;
    }
    const reset = await withKnex(config, (knex) => resetTwoFactor(knex, email));
    if (!reset) {
      err.write(`No account with the e-mail address ${email}\n`);
      return 1;
    }
    out.write(
      reset.wasEnabled
        ? `Two-factor authentication turned off for ${reset.email} (${reset.userId}); they sign in with their password and can enable it again.\n`
        : `Two-factor authentication was not enabled for ${reset.email} (${reset.userId}); nothing left to reset.\n`,
    );
    return 0;
  }
  if (command === "outbox") {
    const { values } = parseArgs({
      args: rest,
      options: { to: { type: "string" }, limit: { type: "string", default: "10" } },
    });
    const limit = Number(values.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 1000) {
      err.write(`--limit must be an integer from 1 to 1000\n${USAGE}`);
      return 2;
    }
    const mails = await withKnex(config, (knex) => readOutbox(knex, { to: values.to, limit }));
    for (const m of mails) out.write(`To: ${m.to}\nSubject: ${m.subject}\n\n${m.text}\n${"-".repeat(60)}\n`);
    if (mails.length === 0) out.write("The outbox is empty.\n");
    return 0;
  }
  if (command === "jobs") {
    const { values } = parseArgs({
      args: rest,
      options: {
        failed: { type: "boolean", default: false },
        queued: { type: "boolean", default: false },
        limit: { type: "string", default: "50" },
      },
    });
    const limit = Number(values.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 1000 || (values.failed && values.queued)) {
      err.write(`--limit must be an integer from 1 to 1000; --failed and --queued exclude each other\n${USAGE}`);
      return 2;
    }
    const state = values.failed ? "failed" : values.queued ? "queued" : "all";
    const jobs = await withKnex(config, (knex) => listJobs(knex, { state, limit }));
    out.write(jobs === null ? "No job queue in this database yet (start the server once).\n" : formatJobs(jobs));
    return 0;
  }
  err.write(USAGE);
  return 2;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  runCli(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (e: unknown) => {
      process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
      process.exit(1);
    },
  );
}
