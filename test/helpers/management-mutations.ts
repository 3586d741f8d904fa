/** The management mutations as the SDL declares them (schema/applications.graphql), for tests that must cover each. */
import { readFileSync } from "node:fs";
import { Kind, parse } from "graphql";

/** Names of the `Mutation` fields schema/applications.graphql declares, in SDL order. */
export function managementMutations(): string[] {
  const doc = parse(readFileSync(new URL("../../schema/applications.graphql", import.meta.url), "utf8"));
  return doc.definitions.flatMap((d) =>
    d.kind === Kind.OBJECT_TYPE_EXTENSION && d.name.value === "Mutation"
      ? (d.fields ?? []).map((f) => f.name.value)
      : [],
  );
}
