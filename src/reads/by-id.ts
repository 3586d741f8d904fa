/**
 * By-id reads for services: the rows of a table descriptor (tables.ts) that the caller sees, found by id with the
 * descriptor's own SQL visibility — the condition the compiled reads apply — batched per request with DataLoader
 * (the ids asked for in one tick: one statement per table). A missing row and one the caller may not see both load
 * as null (callers answer NOT_FOUND).
 */
import DataLoader from "dataloader";
import type { Knex } from "knex";
import type { ReadCaller } from "./compiler.ts";
import { SqlConditionWriter } from "./condition-writer.ts";
import type { TableDescriptor } from "./tables.ts";

/**
 * What turns a row (camelCase keys, as knex's mappers give it) into the loaded value: an Objection model class,
 * whose instances are `R`.
 */
export interface RowModel<R> {
  new (): R;
  fromDatabaseJson(row: object): unknown;
}

/**
 * The rows of `descriptor` with ids `ids` that `caller` sees, camelCase keys (`model` turns each into its value),
 * in no particular order: one statement. For a service outside a request's loaders (e.g. one the organization
 * import also calls); in a request, prefer the batched {@link ByIdReads}.
 */
export async function visibleRowsById<R = Record<string, unknown>>(
  knex: Knex,
  caller: ReadCaller,
  descriptor: TableDescriptor,
  ids: readonly string[],
  model?: RowModel<R>,
): Promise<R[]> {
  const writer = new SqlConditionWriter(caller);
  const condition = writer.text(descriptor.visible(writer, "r"));
  const rows: Record<string, unknown>[] = await knex
    .select("r.*")
    .from(knex.raw(`${descriptor.table} as r`))
    .whereIn("r.id", [...ids])
    .whereRaw(condition.sql, condition.bindings);
  return model ? rows.map((row) => model.fromDatabaseJson(row) as R) : (rows as R[]);
}

/**
 * The by-id reads of one request: `loader(descriptor, model)` is the request's DataLoader of that descriptor's rows
 * (one per descriptor, made on first use), each id loading its visible row or null. `caller` is read once, when the
 * first batch runs.
 */
export class ByIdReads {
  private readonly knex: Knex;
  private readonly caller: () => Promise<ReadCaller>;
  private readonly loaders = new Map<TableDescriptor, DataLoader<string, unknown>>();

  constructor(knex: Knex, caller: () => Promise<ReadCaller>) {
    this.knex = knex;
    this.caller = caller;
  }

  /**
   * The request's loader of `descriptor`'s visible rows by id, as `model` makes them (the first call's model: one
   * model per descriptor).
   */
  loader<R extends { id: string }>(descriptor: TableDescriptor, model: RowModel<R>): DataLoader<string, R | null> {
    let loader = this.loaders.get(descriptor) as DataLoader<string, R | null> | undefined;
    if (!loader) {
      loader = new DataLoader<string, R | null>(async (ids) => {
        const rows = await visibleRowsById(this.knex, await this.caller(), descriptor, ids, model);
        const byId = new Map(rows.map((row) => [row.id, row]));
        return ids.map((id) => byId.get(id) ?? null);
      });
      this.loaders.set(descriptor, loader as DataLoader<string, unknown>);
    }
    return loader;
  }
}
