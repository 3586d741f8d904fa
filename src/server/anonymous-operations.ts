/**
 * An anonymous request (no credential at all) may run only the public root fields — `_service`, the fields modules
 * declare public (`publicRootFields`: the invitation page's, the docs sites') and introspection (`__schema`,
 * `__type`, `__typename`) — docs/graphql.md "Errors". An operation selecting any other root field, directly or
 * through a fragment, is refused whole before it runs: 401 `UNAUTHENTICATED` and no `data`, the answer a client
 * that forgot its credential expects, whichever fields it selected (a nullable one refused alone would leave
 * `data` and answer 200).
 */
import type { ApolloServerPlugin } from "@apollo/server";
import type { OperationDefinitionNode } from "graphql";
import { UnauthenticatedError } from "../shared/errors.ts";
import { rootFieldNames } from "../shared/root-fields.ts";

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
          for (const name of rootFieldNames(document, operation as OperationDefinitionNode)) {
            if (!name.startsWith("__") && !publicRootFields.has(name)) throw new UnauthenticatedError();
          }
        },
      };
    },
  };
}
