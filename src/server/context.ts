/**
 * The per-request GraphQL context: who is calling, what they can see, and fresh loaders.
 * Built for HTTP requests (Apollo), WebSocket subscriptions (graphql-ws) and in-process REST calls alike.
 */
import { randomUUID } from "node:crypto";
import { AccessScope, type Principal } from "../modules/access/access-scope.ts";
import type { Context } from "../modules/context.ts";
import { createLoaders, type Loaders } from "../modules/index.ts";
import type { AppServices } from "../modules/services.ts";

/**
 * Builds a context for `principal` (already authenticated by the transport). `scope` defaults to a new one; a
 * graphql-ws connection passes its own cached scope, shared by its subscriptions and all their events (see
 * src/server/subscriptions.ts). Loaders are created on first use, and anew after each `forEvent()`.
 */
export function buildContext(
  services: AppServices,
  principal: Principal | null,
  requestId: string = randomUUID(),
  scope: AccessScope = new AccessScope(services.knex, principal),
): Context {
  const log = services.log.child({ requestId });
  let loaders: Loaders | null = null;
  const ctx: Context = {
    requestId,
    log,
    knex: services.knex,
    services,
    principal,
    scope,
    get loaders(): Loaders {
      loaders ??= createLoaders({ knex: services.knex, scope: ctx.scope, secrets: services.secrets });
      return loaders;
    },
    set loaders(value: Loaders) {
      loaders = value;
    },
    forEvent() {
      loaders = null;
      return ctx;
    },
  };
  return ctx;
}
