/**
 * The context of one GraphQL operation as resolvers and services see it: who is calling, what they can see,
 * and fresh per-request loaders. Built by the transport (src/server/context.ts) for HTTP requests, graphql-ws
 * subscriptions and in-process REST calls alike.
 */
import type { Knex } from "knex";
import type { Logger } from "pino";
import type { AppServices } from "../shared/services.ts";
import type { AccessScope, Principal } from "./access/access-scope.ts";
import type { Loaders } from "./index.ts";

/** Context of one GraphQL operation. */
export interface Context {
  requestId: string;
  log: Logger;
  knex: Knex;
  services: AppServices;
  /** null when the request carries no valid credentials (root fields then answer UNAUTHENTICATED). */
  principal: Principal | null;
  scope: AccessScope;
  loaders: Loaders;
}
