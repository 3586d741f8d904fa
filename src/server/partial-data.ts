/**
 * A GraphQL response whose `data` is not null answers with a 2xx status (GraphQL over HTTP: "If the GraphQL response
 * contains the data entry and it is not null, then the server MUST reply with a 2xx status code"): a field refused to
 * its caller (UNAUTHENTICATED, whose error asks for 401) beside fields that resolved answers 200, the refusal in
 * `errors`. A response without data (the whole operation refused) keeps the error's status.
 */
import type { ApolloServerPlugin } from "@apollo/server";

/** The Apollo plugin that sets 200 on a response with data and an error status. */
export function partialDataPlugin<C extends object>(): ApolloServerPlugin<C> {
  return {
    async requestDidStart() {
      return {
        async willSendResponse({ response }) {
          if (response.body.kind !== "single" || response.body.singleResult.data == null) return;
          if ((response.http.status ?? 200) >= 400) response.http.status = 200;
        },
      };
    },
  };
}
