/**
 * Several instances (or the migration Job and the instances of deploy/) starting at once on an EMPTY database:
 * every one of them migrates successfully, and each migration is applied once. Knex's own lock
 * (a row of `knex_migrations_lock`, updated inside the batch's transaction) serialises batches once its tables
 * exist, but creating those tables is a check-then-create race on a fresh database; migrateLatest's advisory lock
 * (src/db/knex.ts) covers both.
 */
import { randomBytes } from "node:crypto";
import pg from "pg";
import { describe, expect, inject, it } from "vitest";
import { createKnex, migrateLatest } from "../../src/db/knex.ts";
import { createTestDatabase } from "../helpers/db.ts";

/** `url` with its database name replaced. */
function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

async function admin<T>(run: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: inject("adminUrl") });
  await c.connect();
  try {
    return await run(c);
  } finally {
    await c.end();
  }
}

describe("concurrent migrations on an empty database", () => {
  it("4 instances at once: all succeed, every migration applied exactly once", async () => {
    const name = `skiff_t_${inject("templateDb").split("_")[2]}_${randomBytes(6).toString("hex")}`;
    await admin((c) => c.query(`create database ${pg.escapeIdentifier(name)}`));
    const instances = Array.from({ length: 4 }, () => createKnex(withDatabase(inject("adminUrl"), name)));
    try {
      const results = await Promise.allSettled(instances.map((k) => migrateLatest(k)));
      const errors = results.flatMap((r) => (r.status === "rejected" ? [String(r.reason)] : []));
      expect(errors).toEqual([]);
      const applied = results.map((r) => (r.status === "fulfilled" ? r.value : []));
      const total = applied.flat();
      expect(new Set(total).size).toBe(total.length); // none applied twice
      expect(applied.filter((a) => a.length > 0)).toHaveLength(1);
      const rows = await instances[0]!("knex_migrations").count("* as n").first();
      expect(Number(rows?.n)).toBe(total.length);
    } finally {
      await Promise.all(instances.map((k) => k.destroy()));
      await admin((c) => c.query(`drop database if exists ${pg.escapeIdentifier(name)} with (force)`));
    }
  });
});

describe("a database migrated by a newer Skiff", () => {
  it("is refused before anything runs, naming the migrations this version lacks", async () => {
    const db = await createTestDatabase();
    try {
      await db
        .knex("knex_migrations")
        .insert({ name: "29991231000000_future.ts", batch: 99, migration_time: new Date() });
      const before = await db.knex("knex_migrations").count({ n: "*" }).first();
      await expect(migrateLatest(db.knex)).rejects.toThrow(
        /migrated by a newer Skiff: it holds 1 migration\(s\) this version does not have \(29991231000000_future\.ts\)/,
      );
      expect(await db.knex("knex_migrations").count({ n: "*" }).first()).toEqual(before);
    } finally {
      await db.drop();
    }
  });
});
