/**
 * The context of one GraphQL operation as resolvers and services see it: who is calling, what they can see,
 * and fresh per-request loaders. Built by the transport (src/server/context.ts) for HTTP requests, graphql-ws
 * subscriptions and in-process REST calls alike.
 */
import type { Knex } from "knex";
import type { Logger } from "pino";
import type { Caller } from "../auth/caller.ts";
import { type ReadCaller, readCallerOf } from "../reads/index.ts";
import { AccessScope } from "./access/index.ts";
import type { ModuleLoaders } from "./module.ts";
import type { AppServices } from "./services.ts";

/**
 * What every service function takes as its first argument, whoever calls it (resolver, REST row, job): the
 * database (the pool, or the caller's transaction: see src/shared/transaction.ts), the caller's access, the
 * instance's services (config, secrets, clock `services.now`, pubsub, mail …) and a logger.
 */
export interface ServiceContext {
  /** The pool, or the transaction the caller is in. */
  knex: Knex;
  /** The caller's memberships, roles, grants and plan features; loaded once, lazily. */
  scope: AccessScope;
  /** null for anonymous callers and for work done by the platform itself (jobs, see {@link systemContext}). */
  caller: Caller | null;
  services: AppServices;
  log: Logger;
}

/** The surfaces a request reaches Skiff through, as the audit log names them (docs/audit-log.md). */
export type RequestSurface = "GRAPHQL" | "REST" | "PROCEDURE" | "CLI" | "AGENT" | "MCP" | "AUTH" | "SYSTEM";

/** Where a request comes from, set by the transport: its surface and the client's address (proxies resolved). */
export interface RequestOrigin {
  surface: RequestSurface;
  /** The client's IP address (src/http/client-address.ts); null when unknown (in-process calls). */
  clientAddress: string | null;
}

/** Context of one GraphQL operation: a {@link ServiceContext} plus the request's loaders. */
export interface Context extends ServiceContext {
  requestId: string;
  /** Where the request comes from (absent: GraphQL, address unknown). */
  origin?: RequestOrigin;
  loaders: ModuleLoaders;
  /**
   * Renews this long-lived context (one per subscription) for its next event: fresh loaders (current data, no
   * other event's cache), used by that event's resolvers too. Access stays the connection's cached scope, which
   * the transport refreshes when an access change of its caller is announced (src/shared/access-changes.ts), so
   * an event costs no access statement per subscriber. Implemented by the transport. @returns this context.
   */
  forEvent(): Context;
}

/**
 * The context of work the platform does on its own (jobs, start-up): no principal, so its scope sees no
 * organization; such work must not call access-gated services on anyone's behalf.
 */
export function systemContext(services: AppServices, log: Logger = services.log): ServiceContext {
  return { knex: services.knex, scope: new AccessScope(services.knex, null), caller: null, services, log };
}

/**
 * The caller as SQL visibility sees it (src/reads/compiler.ts `ReadCaller`): `scope`'s caller and memberships
 * (loaded once per scope), at the request's clock `now`. For by-id reads of table descriptors (src/reads/by-id.ts).
 */
export function sqlCallerOf(scope: AccessScope, now: Date): Promise<ReadCaller> {
  return readCallerOf(scope.caller, scope, now);
}
