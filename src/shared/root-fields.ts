/**
 * The root fields an operation selects, read from its document: what the transport's anonymous-operation check
 * (src/server/anonymous-operations.ts) and the audit of refused mutations (src/modules/audit/audit-mutations.ts)
 * both need before the operation runs.
 */
import { type DocumentNode, Kind, type OperationDefinitionNode, type SelectionSetNode } from "graphql";

/**
 * The names of the root fields `operation` of `document` selects, in order, each once (however many aliases select
 * it), through inline fragments and fragment spreads — each fragment read once, so a document that spreads a
 * fragment within itself (refused by validation, and read before it) ends. A spread of an unknown fragment adds none.
 */
export function rootFieldNames(document: DocumentNode, operation: OperationDefinitionNode): string[] {
  const fragments = new Map(
    document.definitions.flatMap((d) => (d.kind === Kind.FRAGMENT_DEFINITION ? [[d.name.value, d] as const] : [])),
  );
  const names = new Set<string>();
  const seen = new Set<string>();
  const visit = (set: SelectionSetNode) => {
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) names.add(selection.name.value);
      else if (selection.kind === Kind.INLINE_FRAGMENT) visit(selection.selectionSet);
      else if (!seen.has(selection.name.value)) {
        seen.add(selection.name.value);
        const fragment = fragments.get(selection.name.value);
        if (fragment) visit(fragment.selectionSet);
      }
    }
  };
  visit(operation.selectionSet);
  return [...names];
}
