/**
 * The per-request GraphQL context: who is calling, what they can see, and fresh loaders.
 * Built for HTTP requests (Apollo), WebSocket subscriptions (graphql-ws) and in-process REST calls alike.
 */
import { randomUUID } from "node:crypto";
import { AccessScope, type Principal } from "../modules/access/access-scope.ts";
import type { Context } from "../modules/context.ts";
import { createLoaders } from "../modules/index.ts";
import type { AppServices } from "../modules/services.ts";

/** Builds a context for `principal` (already authenticated by the transport). */
export function buildContext(
  services: AppServices,
  principal: Principal | null,
  requestId: string = randomUUID(),
): Context {
  const scope = new AccessScope(services.knex, principal);
  const log = services.log.child({ requestId });
  const ctx: Context = {
    requestId,
    log,
    knex: services.knex,
    services,
    principal,
    scope,
    loaders: createLoaders({ knex: services.knex, scope, secrets: services.secrets }),
    forEvent() {
      ctx.scope = new AccessScope(services.knex, principal);
      ctx.loaders = createLoaders({ knex: services.knex, scope: ctx.scope, secrets: services.secrets });
      return ctx;
    },
  };
  return ctx;
}
