/**
 * The per-request GraphQL context: who is calling, what they can see, and fresh loaders.
 * Built for HTTP requests (Apollo), WebSocket subscriptions (graphql-ws) and in-process REST calls alike.
 */
import { randomUUID } from "node:crypto";
import type { Knex } from "knex";
import type { Logger } from "pino";
import type { Caller } from "../auth/caller.ts";
import { AccessScope } from "../modules/access/index.ts";
import type { Context, RequestOrigin, RequestSurface } from "../modules/context.ts";
import { createLoaders, type Loaders } from "../modules/index.ts";
import type { AppServices } from "../modules/services.ts";

/**
 * One request's context. Its loaders and its logger are made on first use by accessors on the prototype, so that
 * copies of its own properties (Apollo clones the context of every HTTP operation with `Object.assign`; a service
 * copies it onto a transaction with `onTransaction`) build neither on the way: a copy carries what was made before
 * it and makes the rest itself when first asked.
 */
class RequestContext implements Context {
  readonly services: AppServices;
  caller: Caller | null;
  readonly requestId: string;
  scope: AccessScope;
  readonly knex: Knex;
  /** The loaders once built (an own property, so copies carry what was built before they were made). */
  built: Loaders | null = null;
  /** The request's logger once made (most requests log nothing through it). */
  logger: Logger | null = null;
  /** Where the request comes from (set by the transport after building; see {@link withOrigin}). */
  origin: RequestOrigin = { surface: "GRAPHQL", clientAddress: null };

  constructor(services: AppServices, caller: Caller | null, requestId: string, scope: AccessScope) {
    this.services = services;
    this.caller = caller;
    this.requestId = requestId;
    this.scope = scope;
    this.knex = services.knex;
  }

  /** The instance's logger bound to the request id, made on first use. */
  get log(): Logger {
    this.logger ??= this.services.log.child({ requestId: this.requestId });
    return this.logger;
  }

  get loaders(): Loaders {
    this.built ??= createLoaders({
      knex: this.services.knex,
      scope: this.scope,
      secrets: this.services.secrets,
      now: () => this.services.now(),
    });
    return this.built;
  }

  set loaders(value: Loaders) {
    this.built = value;
  }

  forEvent(): Context {
    this.built = null;
    return this;
  }
}

/**
 * A new request id (a UUID v4) as one flat string: `randomUUID` builds it by concatenation, a chain of about
 * 14 string parts (some 450 bytes) that a long-lived context, such as an idle subscription's, would keep;
 * converting it to a number (NaN, unused) makes V8 flatten it in place (about 90 bytes).
 */
function newRequestId(): string {
  const id = randomUUID();
  Number(id);
  return id;
}

/**
 * Builds a context for `caller` (already authenticated by the transport). `scope` defaults to a new one; a
 * graphql-ws connection passes its own cached scope, shared by its subscriptions and all their events (see
 * src/server/subscriptions.ts). Loaders are created on first use, and anew after each `forEvent()`.
 */
export function buildContext(
  services: AppServices,
  caller: Caller | null,
  requestId: string = newRequestId(),
  scope: AccessScope = new AccessScope(services.knex, caller),
): Context {
  return new RequestContext(services, caller, requestId, scope);
}

/** The header by which the command-line client marks its requests (`x-skiff-client: cli`). */
export const CLIENT_HEADER = "x-skiff-client";

/**
 * Sets where `ctx`'s request comes from: `surface`, or `CLI` when the request carries `x-skiff-client: cli` on the
 * GraphQL or REST surface; `clientAddress` as Fastify resolved it (`request.ip`). @returns `ctx`.
 */
export function withOrigin<C extends Context>(
  ctx: C,
  surface: RequestSurface,
  headers: Record<string, string | string[] | undefined>,
  clientAddress: string | null,
): C {
  const client = headers[CLIENT_HEADER];
  const cli = (Array.isArray(client) ? client[0] : client)?.trim().toLowerCase() === "cli";
  ctx.origin = { surface: cli && (surface === "GRAPHQL" || surface === "REST") ? "CLI" : surface, clientAddress };
  return ctx;
}
