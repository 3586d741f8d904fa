/**
 * The audit entries of mutation operations refused before any of their fields ran (docs/audit-log.md, "Refused
 * before it runs"): a document that fails validation, variables that do not coerce or fail the input checks. A
 * field refused by its resolver writes its own entry (src/modules/audit/audit-mutations.ts); these never reach one,
 * so the transport records them — over HTTP (every REST row and procedure included: they execute through Apollo) with
 * {@link refusedMutationsPlugin}, over WebSocket from src/server/subscriptions.ts — through the audit module's
 * {@link recordRefusedMutation}.
 */
import type { ApolloServerPlugin } from "@apollo/server";
import type { DocumentNode, GraphQLFormattedError, GraphQLSchema } from "graphql";
import { outcomeOfCode, recordRefusedMutation } from "../modules/audit/index.ts";
import type { Context } from "../modules/context.ts";
import { confirmCaller } from "./remembered-callers.ts";

/**
 * True when `errors` (an answer with no data: nothing ran) refuse the operation for what the client sent: their first
 * code is a refusal ({@link outcomeOfCode}: validation, bad input, an id no object can have, …) other than the
 * credentials' own (a call without valid credentials leaves no entry).
 */
export function refusedForInput(errors: readonly Pick<GraphQLFormattedError, "extensions">[] | undefined): boolean {
  const code = errors?.[0]?.extensions?.code;
  return typeof code === "string" && code !== "UNAUTHENTICATED" && outcomeOfCode(code) === "refused";
}

/**
 * Records the refusal of operation `operationName` of `document` by `ctx`'s caller, when it is a mutation
 * ({@link recordRefusedMutation}); a remembered caller is confirmed first. A request without valid credentials (none,
 * or a remembered one that no longer verifies: its answer is the 401) leaves nothing.
 */
export async function recordRefusedOperation(
  ctx: Context,
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName?: string | null,
): Promise<void> {
  const confirmed = await confirmCaller(ctx).then(
    () => true,
    () => false,
  );
  if (confirmed && ctx.caller) await recordRefusedMutation(ctx, schema, document, operationName);
}

/**
 * The Apollo plugin that records a mutation operation answered with no data and refused for its input
 * ({@link refusedForInput}): its document parsed, then validation, the variables' coercion or an input check refused
 * it before any field ran. Written before the answer is sent.
 */
export function refusedMutationsPlugin(): ApolloServerPlugin<Context> {
  return {
    async requestDidStart() {
      return {
        async willSendResponse(rc) {
          const body = rc.response.body;
          if (body.kind !== "single" || !rc.document) return;
          // `errors` first: a compiled read's answer holds its data as text, which reading `data` would parse.
          if (!refusedForInput(body.singleResult.errors) || body.singleResult.data !== undefined) return;
          await recordRefusedOperation(rc.contextValue, rc.schema, rc.document, rc.request.operationName);
        },
      };
    },
  };
}
