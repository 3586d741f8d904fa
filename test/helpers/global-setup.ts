/**
 * Vitest global setup: picks the PostgreSQL server (DATABASE_URL's, or an embedded one under
 * .data/test), creates a fresh migrated template database, and hands its name to the test files.
 * It also creates the test CA (test/helpers/test-ca.ts) and sets NODE_EXTRA_CA_CERTS, which the test workers
 * inherit when they are forked, so loopback HTTPS receivers are trusted with TLS verification on.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { withDatabase } from "../../src/db/connect.ts";
import { startEmbeddedPostgres } from "../../src/db/embedded.ts";
import { createKnex, migrateLatest } from "../../src/db/knex.ts";
import { migrateJobSchema } from "../../src/jobs/job-schema.ts";
import { createTestCa, removeTestCa, type TestCaFiles } from "./test-ca.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** URL of the maintenance database of the test server. */
    adminUrl: string;
    /** Name of the migrated template database each test file clones. */
    templateDb: string;
    /** PEM files of the test CA and of the server certificate it signs (see test/helpers/test-ca.ts). */
    testTls: { caFile: string; certFile: string; keyFile: string };
  }
}

let stopEmbedded: (() => Promise<void>) | undefined;
let templateName: string | undefined;
let adminUrlUsed = "";
let testCa: TestCaFiles | undefined;

export async function setup(project: TestProject): Promise<void> {
  testCa = await createTestCa();
  // A CA bundle the user already trusts this way stays trusted: the test CA is appended to a copy of it.
  const inherited = process.env.NODE_EXTRA_CA_CERTS;
  if (inherited && existsSync(inherited)) {
    writeFileSync(testCa.caFile, `${readFileSync(inherited, "utf8")}\n${readFileSync(testCa.caFile, "utf8")}`);
  }
  process.env.NODE_EXTRA_CA_CERTS = testCa.caFile;
  project.provide("testTls", { caFile: testCa.caFile, certFile: testCa.certFile, keyFile: testCa.keyFile });
  let adminUrl: string;
  if (process.env.DATABASE_URL) {
    adminUrl = withDatabase(process.env.DATABASE_URL, "postgres");
  } else {
    const server = await startEmbeddedPostgres(".data/test", Number(process.env.SKIFF_TEST_PG_PORT ?? 54330), {
      durable: false,
    });
    adminUrl = server.url;
    stopEmbedded = server.stop;
  }
  const templateDb = `skiff_template_${process.pid}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  // Leftovers of interrupted runs: databases named after a test run whose process is gone.
  const stale = await admin.query("select datname from pg_database where datname ~ '^skiff_(template|t)_[0-9]+'");
  for (const { datname } of stale.rows as Array<{ datname: string }>) {
    if (!isAlive(Number(datname.split("_")[2]))) {
      await admin.query(`drop database if exists ${pg.escapeIdentifier(datname)} with (force)`);
    }
  }
  await admin.query(`create database ${pg.escapeIdentifier(templateDb)}`);
  const knex = createKnex(withDatabase(adminUrl, templateDb));
  await migrateLatest(knex);
  await knex.destroy();
  await migrateJobSchema(withDatabase(adminUrl, templateDb));
  await admin.end();
  templateName = templateDb;
  adminUrlUsed = adminUrl;
  project.provide("adminUrl", adminUrl);
  project.provide("templateDb", templateDb);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export async function teardown(): Promise<void> {
  if (templateName) {
    const admin = new pg.Client({ connectionString: adminUrlUsed });
    await admin.connect();
    const own = await admin.query("select datname from pg_database where datname like $1", [`skiff_%_${process.pid}%`]);
    for (const { datname } of own.rows as Array<{ datname: string }>) {
      await admin.query(`drop database if exists ${pg.escapeIdentifier(datname)} with (force)`);
    }
    await admin.end();
  }
  await stopEmbedded?.();
  if (testCa) await removeTestCa(testCa);
}
