/**
 * Authentication and data in one round trip: a request on /graphql or a REST row presenting an API key
 * (or, on the agent API, an agent token) this process resolved before starts with the caller it had then —
 * *remembered*, not trusted. The compiled read confirms it in its own statement (the credential's strategy wraps it:
 * `rememberedCaller` in src/auth/credentials/ — the credential is resolved again in the same snapshot as the data, an
 * agent token counted against its rate limit, and the data read only when the caller is unchanged). Every other way a request can go — not compilable, a mutation, a read that fell
 * back, an error before execution, a REST row's bad input — confirms it the ordinary way first ({@link confirmCaller};
 * {@link callerConfirmationPlugin} makes sure no operation is answered unconfirmed). A key deleted, disabled or
 * expired answers 401 on its next request, whichever instance gets it.
 */
import type { IncomingHttpHeaders } from "node:http";
import type { ApolloServerPlugin, GraphQLResponse } from "@apollo/server";
import { HeaderMap } from "@apollo/server";
import { GraphQLError } from "graphql";
import type { Caller } from "../auth/caller.ts";
import type { RememberedCaller } from "../auth/credentials/credential.ts";
import { rememberedCaller } from "../auth/credentials/index.ts";
import type { Context } from "../modules/context.ts";
import type { AppServices } from "../modules/services.ts";
import { isDatabaseUnavailable } from "../shared/database-unavailable.ts";
import type { Surface } from "../shared/rest-route.ts";
import { authenticate, callerOptions, headerView, RateLimitedError, refusalFor } from "./authenticate.ts";
import { buildContext } from "./context.ts";
import { unavailableError } from "./format-error.ts";

/** A context's remembered caller: what it was remembered as, the request's headers and surface, whether confirmed. */
interface Pending {
  remembered: RememberedCaller;
  headers: IncomingHttpHeaders | Record<string, string | undefined>;
  surface: Surface;
  /** The caller acts on its organization alone ({@link Caller.activeOrganizationOnly}), confirmed or not. */
  activeOnly: boolean;
  confirmed: boolean;
  /** Confirming it found the credential valid but over its rate limit: the call is still its token's. */
  overLimit: boolean;
  /** The confirmation under way, if any: concurrent confirmations of one request share it (one statement). */
  confirming?: Promise<Context>;
}

/**
 * Where a context keeps its {@link Pending}: a property of the context itself, because Apollo runs a request with a
 * shallow copy of the context it was given (`cloneObject`), which copies this (enumerable) property with the rest.
 */
const PENDING = Symbol("skiff.rememberedCaller");

/** `ctx`'s remembered caller while it is not confirmed, else null. */
function pendingOf(ctx: Context): Pending | null {
  const p = (ctx as Context & { [PENDING]?: Pending })[PENDING];
  return p && !p.confirmed ? p : null;
}

/**
 * The context of a request (on `surface`: /graphql, or a REST row's) whose credential this process remembers, with
 * the remembered principal pending confirmation; null when there is none to remember (then authenticate the
 * ordinary way). `activeOnly`: the principal acts on its organization alone, a session on its active one (REST rows
 * that name no organization; {@link Caller.activeOrganizationOnly}).
 */
export function rememberedContext(
  services: AppServices,
  headers: IncomingHttpHeaders | Record<string, string | undefined>,
  requestId: string,
  surface: Surface,
  activeOnly = false,
): Context | null {
  const remembered = rememberedCaller(
    services.auth,
    services.knex,
    headerView(headers),
    surface,
    callerOptions(services),
  );
  if (!remembered) return null;
  const caller = remembered.caller();
  if (activeOnly) caller.activeOrganizationOnly = true;
  const ctx = buildContext(services, caller, requestId);
  const p: Pending = { remembered, headers, surface, activeOnly, confirmed: false, overLimit: false };
  Object.assign(ctx, { [PENDING]: p });
  return ctx;
}

/**
 * The remembered entry `ctx`'s caller was started from while it is not confirmed yet (see
 * {@link RememberedCaller.identity}), else null.
 */
export function rememberedIdentity(ctx: Context): object | null {
  return pendingOf(ctx)?.remembered.identity ?? null;
}

/**
 * True when `ctx`'s caller is a remembered one its request has not confirmed — confirming it found the credential
 * no longer valid (revoked, replaced, expired, its member removed), or it was never confirmed: the request is
 * answered 401 and, as a call without valid credentials, belongs to no organization and leaves no audit entry
 * (docs/audit-log.md, "Agent API and MCP calls"). False for a caller confirmed, not remembered, or found over its
 * rate limit (a valid token's refused call, which has its entry).
 */
export function unconfirmedCaller(ctx: Context): boolean {
  const p = pendingOf(ctx);
  return p !== null && !p.overLimit;
}

/**
 * A read statement (`sql`, `bindings`: one row) for `ctx`: as given when its caller is confirmed, else wrapped so
 * that it confirms the caller too. Read its row with {@link readFor}.
 */
export function statementFor(ctx: Context, sql: string, bindings: readonly unknown[]) {
  const p = pendingOf(ctx);
  return p ? p.remembered.statement(sql, bindings) : { sql, bindings: [...bindings] };
}

/**
 * The row of a statement from {@link statementFor}: as read when the caller was confirmed before or by this very
 * statement (it is confirmed from now on); null when the statement found the remembered caller changed or gone —
 * then confirm it ({@link confirmCaller}) and read again.
 */
export async function readFor(
  ctx: Context,
  row: Record<string, unknown> | undefined,
): Promise<Record<string, unknown> | null> {
  const p = pendingOf(ctx);
  if (!p) return row ?? null;
  const confirmed = await p.remembered.confirmed(row);
  if (confirmed) p.confirmed = true;
  return confirmed;
}

/**
 * Confirms `ctx`'s caller when it is pending: authenticates the request anew and puts the principal found (with a
 * new scope and new loaders) in place of the remembered one. No-op when confirmed already.
 * @throws the UNAUTHENTICATED error (401) when the credentials no longer verify ({@link refusalFor} the surface, or
 * the agent API's rate limit); SERVICE_UNAVAILABLE (503) when the database cannot be reached.
 */
export async function confirmCaller(ctx: Context): Promise<void> {
  const p = pendingOf(ctx);
  if (!p) return;
  // Two hooks of one request may confirm at once (Apollo runs `willSendResponse` hooks together): one statement.
  p.confirming ??= authenticateAgain(ctx, p);
  const fresh = await p.confirming;
  // Apollo's copy of the context is the one resolvers see: its principal, scope and loaders are replaced.
  ctx.caller = fresh.caller;
  ctx.scope = fresh.scope;
  ctx.loaders = fresh.loaders;
}

/** Authenticates `p`'s request anew; @returns the context of the principal found (see {@link confirmCaller}). */
async function authenticateAgain(ctx: Context, p: Pending): Promise<Context> {
  const principal = await authenticate(ctx.services, p.headers, p.surface).catch((error: unknown) => {
    if (error instanceof RateLimitedError) p.overLimit = true;
    throw isDatabaseUnavailable(error) ? unavailableError() : error;
  });
  if (!principal) throw refusalFor(p.surface);
  if (p.activeOnly) principal.activeOrganizationOnly = true;
  p.confirmed = true;
  return buildContext(ctx.services, principal, ctx.requestId);
}

/** The whole answer of an error thrown by {@link confirmCaller}: its HTTP status and headers, its code. */
function errorResponse(error: GraphQLError): GraphQLResponse {
  const http = error.extensions.http as { status?: number; headers?: Map<string, string> } | undefined;
  const headers = new HeaderMap();
  for (const [name, value] of http?.headers ?? []) headers.set(name, value);
  return {
    http: { status: http?.status ?? 500, headers },
    body: {
      kind: "single",
      singleResult: { errors: [{ message: error.message, extensions: { code: error.extensions.code } }] },
    },
  };
}

/** Confirms `ctx`'s caller; null when confirmed, else the answer for the error (see {@link confirmCaller}). */
async function confirmOrAnswer(ctx: Context): Promise<GraphQLResponse | null> {
  try {
    await confirmCaller(ctx);
    return null;
  } catch (error) {
    const code = (error as GraphQLError).extensions?.code;
    if (code === "UNAUTHENTICATED" || code === "SERVICE_UNAVAILABLE") return errorResponse(error as GraphQLError);
    throw error;
  }
}

/**
 * The plugin that answers no request with an unconfirmed caller. Placed after the compiled reads: an operation they
 * did not answer is confirmed before it executes (`responseForOperation`); an answer given before that point (a
 * parse, validation or cost error, a compiled read past its time limit) is replaced by the 401 when the caller no
 * longer verifies (`willSendResponse`).
 */
export function callerConfirmationPlugin(): ApolloServerPlugin<Context> {
  return {
    async requestDidStart() {
      return {
        async responseForOperation(rc) {
          return confirmOrAnswer(rc.contextValue);
        },
        async willSendResponse(rc) {
          if (!pendingOf(rc.contextValue)) return;
          const refused = await confirmOrAnswer(rc.contextValue).catch((error: unknown) => {
            rc.contextValue.log.error({ err: error }, "could not confirm the caller");
            return errorResponse(
              new GraphQLError("Internal server error", { extensions: { code: "INTERNAL_SERVER_ERROR" } }),
            );
          });
          if (!refused) return;
          rc.response.body = refused.body;
          rc.response.http.status = refused.http?.status;
          for (const [name, value] of refused.http?.headers ?? []) rc.response.http.headers.set(name, value);
        },
      };
    },
  };
}
