/**
 * The plan PostgreSQL keeps for a named prepared statement once it settles on a generic one (src/db: statements
 * prepared once per connection), read with EXPLAIN under `plan_cache_mode = force_generic_plan`.
 */
import type { Knex } from "knex";

/** The generic plan of `text` (`$n` parameters) on `knex`'s database, as EXPLAIN prints it (one line per node). */
export async function genericPlan(knex: Knex, text: string): Promise<string> {
  const parameters = new Set(text.match(/\$\d+/g)).size;
  return knex.transaction(async (trx) => {
    await trx.raw("set local plan_cache_mode = force_generic_plan");
    await trx.raw(`prepare generic_plan_probe as ${text}`);
    // The values do not matter: a generic plan is made without them.
    const { rows } = await trx.raw<{ rows: Array<{ "QUERY PLAN": string }> }>(
      `explain execute generic_plan_probe(${Array(parameters).fill("null").join(", ")})`,
    );
    await trx.raw("deallocate generic_plan_probe");
    return rows.map((r) => r["QUERY PLAN"]).join("\n");
  });
}
