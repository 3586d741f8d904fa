/**
 * The rate-limit count folded into a statement (src/shared/rate-limit.ts `rateLimitCountSql`): windows on the
 * database's clock, and a transaction that commits without waiting for the disk (`synchronous_commit` off for that
 * transaction only).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rateLimitCountSql } from "../../src/shared/rate-limit.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db?.drop();
});

const LIMIT = { table: "agent_rate_limits", prefix: "count-test", points: 2, windowSeconds: 60 };

/** Counts one call of `key` in a transaction; the points counted and `synchronous_commit` inside it, then after it. */
async function countOnce(key: string) {
  const count = rateLimitCountSql(LIMIT, "c.key", "from c");
  return db.knex.transaction(async (trx) => {
    const { rows } = await trx.raw(
      `with c as (select ?::text as key), counted as (${count.sql}) select points from counted`,
      [key, ...count.bindings],
    );
    const inside = (await trx.raw("show synchronous_commit")).rows[0].synchronous_commit as string;
    return { points: Number(rows[0].points), inside };
  });
}

describe("rateLimitCountSql", () => {
  it("counts in a fixed window and restarts it once the database's clock has passed it", async () => {
    expect((await countOnce("a")).points).toBe(1);
    expect((await countOnce("a")).points).toBe(2);
    expect((await countOnce("a")).points).toBe(3);
    const { expire } = await db.knex("agent_rate_limits").where({ key: "count-test:a" }).first("expire");
    const { now } = (await db.knex.raw("select (extract(epoch from now()) * 1000)::bigint as now")).rows[0];
    expect(Number(expire) - Number(now)).toBeGreaterThan(55_000);
    expect(Number(expire) - Number(now)).toBeLessThanOrEqual(60_000);
    await db
      .knex("agent_rate_limits")
      .where({ key: "count-test:a" })
      .update({ expire: db.knex.raw("(extract(epoch from now()) * 1000)::bigint - 1") });
    expect((await countOnce("a")).points).toBe(1);
  });

  it("turns synchronous_commit off for its own transaction only", async () => {
    const before = (await db.knex.raw("show synchronous_commit")).rows[0].synchronous_commit;
    expect(before).toBe("on");
    expect((await countOnce("b")).inside).toBe("off");
    // Every connection of the pool, after the transaction: the setting was local to it.
    const after = await Promise.all(
      Array.from({ length: 4 }, () => db.knex.raw("show synchronous_commit").then((r) => r.rows[0].synchronous_commit)),
    );
    expect(after).toEqual(["on", "on", "on", "on"]);
  });
});
