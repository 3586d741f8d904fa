/**
 * A private database per test file, cloned from the migrated template (fast, isolated, parallel-safe).
 */
import { randomBytes } from "node:crypto";
import type { Knex } from "knex";
import pg from "pg";
import { inject } from "vitest";
import { withDatabase } from "../../src/db/connect.ts";
import { createKnex } from "../../src/db/knex.ts";

/** A cloned database and a Knex handle on it. */
export interface TestDatabase {
  url: string;
  knex: Knex;
  drop(): Promise<void>;
}

async function admin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: inject("adminUrl") });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Creates `skiff_t_<run>_<random>` from the template; `drop()` removes it. */
export async function createTestDatabase(): Promise<TestDatabase> {
  // skiff_t_<pid of the run>_<random>: global setup drops them when that run is gone.
  const runPid = inject("templateDb").split("_")[2];
  const name = `skiff_t_${runPid}_${randomBytes(6).toString("hex")}`;
  await admin((c) =>
    c.query(`create database ${pg.escapeIdentifier(name)} template ${pg.escapeIdentifier(inject("templateDb"))}`),
  );
  const url = withDatabase(inject("adminUrl"), name);
  const knex = createKnex(url);
  return {
    url,
    knex,
    async drop() {
      await knex.destroy();
      await admin((c) => c.query(`drop database if exists ${pg.escapeIdentifier(name)} with (force)`));
    },
  };
}
