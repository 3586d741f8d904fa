/**
 * Page-size bounds declared in the schema: `@pageSize(max: N)` on a list field's `first` argument
 * (schema/base.graphql). The field refuses a `first` outside 1..N (`pageSizeArg` in src/reads/declarations.ts) and
 * the query cost counts at most N for it (src/server/query-cost.ts): one number, in the SDL, for both.
 */
import type { GraphQLArgument, GraphQLField } from "graphql";
import { Kind } from "graphql";

const maxima = new WeakMap<GraphQLArgument, number | null>();

/** The `max` of `arg`'s `@pageSize` directive, or undefined when it has none. */
export function pageSizeMax(arg: GraphQLArgument | undefined): number | undefined {
  if (!arg) return undefined;
  let max = maxima.get(arg);
  if (max === undefined) {
    const directive = arg.astNode?.directives?.find((d) => d.name.value === "pageSize");
    const value = directive?.arguments?.find((a) => a.name.value === "max")?.value;
    max = value?.kind === Kind.INT ? Number(value.value) : null;
    maxima.set(arg, max);
  }
  return max ?? undefined;
}

/** The `@pageSize` maximum of `field`'s argument `name`, or undefined when it declares none. */
export function pageSizeMaxOf(field: GraphQLField<unknown, unknown>, name: string): number | undefined {
  return pageSizeMax(field.args.find((a) => a.name === name));
}
