/**
 * A transaction that PostgreSQL rolls back for a deadlock (40P01) runs again from its start
 * (src/shared/transaction.ts `transactionRetryingConflicts`, used by every mutation's transactions): two real
 * transactions lock two rows in opposite orders, PostgreSQL picks one as the deadlock's victim, and both changes
 * end committed, each once. Any other error is not retried.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isTransientConflict } from "../../src/db/pg-errors.ts";
import { transactionRetryingConflicts } from "../../src/shared/transaction.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
  await db.knex.raw("create table conflict_rows (id int primary key, touched int not null default 0)");
  await db.knex.raw("create table conflict_log (by text not null)");
});
afterAll(async () => {
  await db?.drop();
});

/** Resolves when `flag` is set (polled every 5 ms). */
async function until(flag: () => boolean): Promise<void> {
  while (!flag()) await new Promise((r) => setTimeout(r, 5));
}

describe("transactions retried on a deadlock", () => {
  it("runs the deadlock's victim again: both changes commit, each exactly once", async () => {
    await db.knex("conflict_rows").insert([{ id: 1 }, { id: 2 }]);
    const tries = { a: 0, b: 0 };
    let aHolds = false;
    let bHolds = false;
    /** Locks `first`, waits until the other holds its row (first try only), then locks `second`. */
    const change = (name: "a" | "b", first: number, second: number) =>
      transactionRetryingConflicts(db.knex, async (trx) => {
        tries[name]++;
        await trx("conflict_rows").where({ id: first }).increment("touched", 1);
        await trx("conflict_log").insert({ by: name });
        if (tries[name] === 1) {
          if (name === "a") aHolds = true;
          else bHolds = true;
          await until(() => aHolds && bHolds);
        }
        await trx("conflict_rows").where({ id: second }).increment("touched", 1);
        return name;
      });
    expect(await Promise.all([change("a", 1, 2), change("b", 2, 1)])).toEqual(["a", "b"]);
    // The victim ran again and its first try left nothing. Both can be victims: each backend checks for the deadlock
    // when its own deadlock_timeout passes, and the second check can still see the cycle while the first victim's
    // abort is releasing its locks (seen under load); then both run again, once.
    expect([3, 4]).toContain(tries.a + tries.b);
    expect(await db.knex("conflict_rows").orderBy("id").pluck("touched")).toEqual([2, 2]);
    expect((await db.knex("conflict_log").orderBy("by").pluck("by")).sort()).toEqual(["a", "b"]);
  });

  it("does not run again after another error, and says which errors are conflicts", async () => {
    let tries = 0;
    await expect(
      transactionRetryingConflicts(db.knex, async (trx) => {
        tries++;
        await trx.raw("select 1/0");
      }),
    ).rejects.toMatchObject({ code: "22012" });
    expect(tries).toBe(1);
    expect(isTransientConflict({ code: "40P01" })).toBe(true);
    expect(isTransientConflict({ nativeError: { code: "40001" } })).toBe(true);
    expect(isTransientConflict({ code: "23505" })).toBe(false);
  });
});
