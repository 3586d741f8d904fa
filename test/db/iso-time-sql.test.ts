/**
 * The compiled reads write a timestamp as the
 * `DateTime` scalar's JSON string with `isoTimeJsonSql` (src/db/sql-time.ts: one `to_char` with the quotes in its
 * format). This test checks, on the test database's PostgreSQL, that it agrees to the character with the quoted
 * `to_char` rendering used before for 20,000 random instants (seeded) over years 1 to 9999 and for the edges (each
 * end of that range, the last microsecond of a millisecond, other offsets, infinity, null), under a session whose
 * DateStyle and TimeZone are not ISO/UTC — and that the text is what JavaScript's `Date#toISOString` writes.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isoTimeJsonSql } from "../../src/db/sql-time.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";

/** The `to_char` rendering, quoted by `||`, that the compiled reads wrote before. */
const TO_CHAR = `'"' || to_char(x at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || '"'`;

const EDGES = [
  "0001-01-01 00:00:00Z",
  "9999-12-31 23:59:59.999999Z",
  "2026-11-26 16:18:35.999999+00",
  "2026-01-01 00:00:00+00",
  "2026-06-30 23:59:59.0005-07:30",
  "1999-06-01 12:00:00.5+05",
  "1969-12-31 23:59:59.999+00",
  "infinity",
  "-infinity",
];

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db?.drop();
});

/** Runs `sql` on one connection whose DateStyle and TimeZone are not the defaults, `random()` seeded (reproducible). */
async function inOddSession<T>(sql: string, bindings: unknown[] = []): Promise<T[]> {
  return db.knex.transaction(async (trx) => {
    await trx.raw("select setseed(0.21)");
    await trx.raw("set local datestyle = 'German, DMY'");
    await trx.raw("set local timezone = 'America/St_Johns'");
    return (await trx.raw(sql, bindings as never)).rows as T[];
  });
}

describe("isoTimeJsonSql", () => {
  it("writes what to_char wrote, to the character, for random instants and the edges", async () => {
    const rows = await inOddSession<{ n: string; differing: string; sample: string | null }>(
      `with v as (
         select '0001-01-01Z'::timestamptz + random() * interval '9998 years 364 days' as x
           from generate_series(1, 20000)
         union all select e::timestamptz from unnest(?::text[]) e
         union all select null)
       select count(*)::text as n,
         count(*) filter (where (${TO_CHAR}) is distinct from ${isoTimeJsonSql("x")})::text as differing,
         min(x::text) filter (where (${TO_CHAR}) is distinct from ${isoTimeJsonSql("x")}) as sample
       from v`,
      [EDGES],
    );
    expect(rows[0]).toEqual({ n: String(20000 + EDGES.length + 1), differing: "0", sample: null });
  });

  it("is Date#toISOString's text, quoted, and SQL null for null and infinity", async () => {
    const instants = ["2026-11-22T20:10:26.123Z", "0001-01-01T00:00:00.000Z", "9999-12-31T23:59:59.999Z"];
    const rows = await inOddSession<{ text: string | null }>(
      `select ${isoTimeJsonSql("x")} as text from unnest(?::timestamptz[]) with ordinality as v(x, i) order by i`,
      [[...instants.map((t) => t.replace("Z", "456Z")), "infinity", null]],
    );
    expect(rows.map((r) => r.text)).toEqual([
      ...instants.map((t) => JSON.stringify(new Date(t).toISOString())),
      null,
      null,
    ]);
  });
});
