/**
 * The per-request GraphQL context: who is calling, what they can see, and fresh loaders.
 * Built for HTTP requests (Apollo), WebSocket subscriptions (graphql-ws) and in-process REST calls alike.
 */
import { randomUUID } from "node:crypto";
import { AccessScope, type Principal } from "../modules/access/access-scope.ts";
import type { Context } from "../modules/context.ts";
import { createLoaders } from "../modules/index.ts";
import type { AppServices } from "../shared/services.ts";

/** Builds a context for `principal` (already authenticated by the transport). */
export function buildContext(
  services: AppServices,
  principal: Principal | null,
  requestId: string = randomUUID(),
): Context {
  const scope = new AccessScope(services.knex, principal);
  return {
    requestId,
    log: services.log.child({ requestId }),
    knex: services.knex,
    services,
    principal,
    scope,
    loaders: createLoaders({ knex: services.knex, scope, secrets: services.secrets }),
  };
}

/**
 * Gives a long-lived context (one per graphql-ws subscription) a fresh access scope and fresh loaders, so the
 * next subscription event sees current data and current roles and grants, never another event's cache.
 */
export function renewContext(ctx: Context): void {
  ctx.scope = new AccessScope(ctx.services.knex, ctx.principal);
  ctx.loaders = createLoaders({ knex: ctx.services.knex, scope: ctx.scope, secrets: ctx.services.secrets });
}
