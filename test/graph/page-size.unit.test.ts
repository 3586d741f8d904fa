/**
 * Page sizes are declared once, in the SDL: every `first` argument carries `@pageSize(max: N)` (src/shared/page-size.ts),
 * which both the field's check and the query cost read.
 */
import { buildSubgraphSchema } from "@apollo/subgraph";
import { isObjectType } from "graphql";
import { describe, expect, it } from "vitest";
import { loadTypeDefs } from "../../src/modules/type-defs.ts";
import { pageSizeMaxOf } from "../../src/shared/page-size.ts";

describe("@pageSize", () => {
  it("bounds every `first` argument of the schema", () => {
    const schema = buildSubgraphSchema({ typeDefs: loadTypeDefs() });
    const firsts: string[] = [];
    const undeclared: string[] = [];
    for (const type of Object.values(schema.getTypeMap())) {
      if (!isObjectType(type) || type.name.startsWith("__")) continue;
      for (const field of Object.values(type.getFields())) {
        if (!field.args.some((a) => a.name === "first")) continue;
        const name = `${type.name}.${field.name}`;
        firsts.push(name);
        const max = pageSizeMaxOf(field, "first");
        if (max === undefined || max < 1) undeclared.push(name);
      }
    }
    expect(firsts.length).toBeGreaterThanOrEqual(6);
    expect(undeclared).toEqual([]);
  });
});
