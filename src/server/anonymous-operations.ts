/**
 * An anonymous request (no credential at all) may run only the public root fields — `_service`, the fields modules
 * declare public (`publicRootFields`: the invitation page's, the docs sites') and introspection (`__schema`,
 * `__type`, `__typename`) — docs/graphql.md "Errors". An operation selecting any other root field, directly or
 * through a fragment, is refused whole before it runs: 401 `UNAUTHENTICATED` and no `data`, the answer a client
 * that forgot its credential expects, whichever fields it selected (a nullable one refused alone would leave
 * `data` and answer 200).
 */
import type { ApolloServerPlugin } from "@apollo/server";
import { type DocumentNode, Kind, type OperationDefinitionNode, type SelectionSetNode } from "graphql";
import { UnauthenticatedError } from "../shared/errors.ts";

/** The root field names `selectionSet` selects, through fragment spreads and inline fragments (each once). */
function rootFieldNames(selectionSet: SelectionSetNode, document: DocumentNode): Set<string> {
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
  visit(selectionSet);
  return names;
}

/**
 * The Apollo plugin refusing an anonymous operation that selects a root field outside `publicRootFields` (and
 * introspection). @throws UnauthenticatedError (401) from `didResolveOperation`.
 */
export function anonymousOperationsPlugin<C extends { caller?: unknown }>(
  publicRootFields: ReadonlySet<string>,
): ApolloServerPlugin<C> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ contextValue, operation, document }) {
          if (contextValue.caller || !operation) return;
          const names = rootFieldNames((operation as OperationDefinitionNode).selectionSet, document);
          for (const name of names) {
            if (!name.startsWith("__") && !publicRootFields.has(name)) throw new UnauthenticatedError();
          }
        },
      };
    },
  };
}
