/**
 * The read statements go to pg on a connection of Knex's pool
 * (src/db/pooled-query.ts) instead of through Knex's query runner. On a real PostgreSQL: the statement answers with
 * Knex's `?` placeholders converted as Knex converts them, as a named prepared statement too; the `query` event
 * (statement counters) fires once per statement; a statement past its time limit is cancelled on the server (its
 * backend is idle again at once, not after the statement's own end) and the pool's connections keep working; a
 * database error reaches the caller with its SQLSTATE; no connection is left checked out.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nativeStatement, pooledQuery, StatementTimeoutError } from "../../src/db/pooled-query.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db?.drop();
});

/** Connections of the test database's pool checked out right now (tarn's count). */
function checkedOut(): number {
  return (db.knex.client as { pool: { numUsed(): number } }).pool.numUsed();
}

describe("pooledQuery", () => {
  it("answers with Knex's placeholders converted, named or not, and reports each statement once", async () => {
    const sql = 'select ?::text as "greeting", ?::int + 1 as "next", \'\\?\' as "mark"';
    const native = nativeStatement(db.knex, sql, ["hello", 41]);
    expect(native.text).toBe('select $1::text as "greeting", $2::int + 1 as "next", \'?\' as "mark"');
    const seen: string[] = [];
    const onQuery = (q: { sql: string }) => seen.push(q.sql);
    db.knex.on("query", onQuery);
    try {
      for (const name of [null, "skiff_test_pooled", "skiff_test_pooled"]) {
        const rows = await pooledQuery(db.knex, native, name, 5_000, { sql, bindings: ["hello", 41] });
        expect(rows).toEqual([{ greeting: "hello", next: 42, mark: "?" }]);
      }
    } finally {
      db.knex.off("query", onQuery);
    }
    expect(seen).toEqual([sql, sql, sql]);
    expect(checkedOut()).toBe(0);
  });

  it("cancels a statement past its time limit on the server and keeps the pool usable", async () => {
    const statement = { text: "select pg_sleep(30), 'marked-for-cancel' as tag", values: [] };
    const started = performance.now();
    await expect(
      pooledQuery(db.knex, statement, null, 200, { sql: statement.text, bindings: [] }),
    ).rejects.toBeInstanceOf(StatementTimeoutError);
    expect(performance.now() - started).toBeLessThan(5_000);
    // The backend gave up the sleep (cancelled), it is not still running it.
    const running = await db.knex.raw(
      "select count(*)::int as n from pg_stat_activity where state = 'active' and query like '%marked-for-cancel%' and pid <> pg_backend_pid()",
    );
    expect(running.rows[0].n).toBe(0);
    // Every pooled connection still answers (the cancelled one included).
    for (let i = 0; i < 12; i++) {
      expect(
        await pooledQuery(db.knex, { text: "select 1 as one", values: [] }, null, 5_000, { sql: "", bindings: [] }),
      ).toEqual([{ one: 1 }]);
    }
    expect(checkedOut()).toBe(0);
  });

  it("passes a database error through with its SQLSTATE and releases the connection", async () => {
    await expect(
      pooledQuery(db.knex, { text: "select 1 / $1::int", values: [0] }, null, 5_000, { sql: "", bindings: [] }),
    ).rejects.toMatchObject({ code: "22012" });
    expect(checkedOut()).toBe(0);
  });
});
