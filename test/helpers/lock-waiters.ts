/**
 * Races made deterministic: a test holds a lock in an uncommitted transaction, starts the racing requests, and
 * releases the lock once the server's backends are seen waiting on it.
 */
import type { Knex } from "knex";

/**
 * Resolves once `count` backends of `knex`'s database wait on a lock while running a statement whose text matches
 * `pattern` (ILIKE). @throws Error after 15 s with fewer.
 */
export async function lockWaiters(knex: Knex, count: number, pattern = "%"): Promise<void> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const { rows } = await knex.raw(
      `select count(*)::int as n from pg_stat_activity
        where datname = current_database() and wait_event_type = 'Lock' and query ilike ?`,
      [pattern],
    );
    if (rows[0].n >= count) return;
    if (Date.now() > deadline) throw new Error(`fewer than ${count} backends waiting on a lock (${rows[0].n})`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
