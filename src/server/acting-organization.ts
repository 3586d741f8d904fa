/**
 * Which organization a GraphQL answer was read in: every response to a caller with credentials carries
 * {@link ACTING_ORGANIZATION_HEADER}, the id of the organization the request acted on (a session's active
 * organization — for `setActiveOrganization`, the one switched to —, an API key's bound one; empty when there is
 * none). The dashboard compares it across its reads, so a page never shows one organization's name beside another's
 * data after the session's active organization changed in another tab (docs/dashboard.md).
 */
import type { ApolloServerPlugin } from "@apollo/server";
import type { Context } from "../modules/context.ts";

/** The response header naming the organization the request acted on. */
export const ACTING_ORGANIZATION_HEADER = "x-skiff-organization";

/** The Apollo plugin that sets {@link ACTING_ORGANIZATION_HEADER} on every answer to a caller with credentials. */
export function actingOrganizationPlugin(): ApolloServerPlugin<Context> {
  return {
    async requestDidStart() {
      return {
        async willSendResponse({ contextValue, response }) {
          const caller = contextValue.caller;
          if (caller) response.http.headers.set(ACTING_ORGANIZATION_HEADER, caller.organizationId ?? "");
        },
      };
    },
  };
}
