/**
 * The writer of one statement's SQL text for compiled reads and by-id reads: parameters, conditions and aliases.
 */
import type { Knex } from "knex";
import type { ReadCaller } from "./compiler.ts";
import type { SqlCondition } from "./context.ts";
import type { SqlVisibility } from "./tables.ts";

/** Parameters are marked «n» while a condition is written (no visibility SQL contains «), `?` in the end. */
const PLACEHOLDER = /«(\d+)»/g;

/**
 * Writes the SQL of one statement for `caller`: bind parameters marked while writing and bound in the order the final
 * text holds them ({@link SqlConditionWriter.text}), conditions with `?` bindings, fresh aliases (`<prefix>1`,
 * `<prefix>2`, …). The compiler (compiler.ts `ReadCompiler`) is one; a by-id read (by-id.ts) uses one of its own.
 */
export class SqlConditionWriter implements SqlVisibility {
  readonly caller: ReadCaller;
  private readonly values: Knex.Value[] = [];
  private aliases = 0;
  private readonly aliasPrefix: string;

  constructor(caller: ReadCaller, aliasPrefix = "v") {
    this.caller = caller;
    this.aliasPrefix = aliasPrefix;
  }

  /** A bind parameter holding `value` (safe in any position of the generated SQL). */
  param(value: Knex.Value): string {
    this.values.push(value);
    return `«${this.values.length - 1}»`;
  }

  /** `condition` with its `?` bindings turned into parameters of this statement. */
  condition(condition: SqlCondition): string {
    let next = 0;
    return condition.sql.replace(/\?/g, () => this.param(condition.bindings[next++] ?? null));
  }

  /** A table alias not used elsewhere in the statement, e.g. `t7`. */
  alias(): string {
    this.aliases += 1;
    return `${this.aliasPrefix}${this.aliases}`;
  }

  /** `sql` with its «n» marks as `?` placeholders, and their bindings in that order. */
  text(sql: string): { sql: string; bindings: Knex.Value[] } {
    const bindings: Knex.Value[] = [];
    const text = sql.replace(PLACEHOLDER, (_m, index: string) => {
      bindings.push(this.values[Number(index)] ?? null);
      return "?";
    });
    return { sql: text, bindings };
  }
}
