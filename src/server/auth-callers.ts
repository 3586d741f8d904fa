/**
 * The caller of each audited `/api/auth/*` request (every one that is not a plain read: src/server/auth-audit.ts),
 * resolved once, before better-auth answers, and shared by the hooks that need it: the audit entry's actor and the
 * announcement of a session's end (src/server/session-events.ts). Resolving before the handler is what lets the
 * entry of a sign-out or a revocation name the session it ends.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Caller } from "../auth/caller.ts";
import type { AppServices } from "../modules/services.ts";
import { authAction } from "./auth-audit.ts";
import { authenticate } from "./authenticate.ts";

/** The caller an audited `/api/auth/*` request presented (null: none, or one that does not verify). */
export type AuthCallers = (request: FastifyRequest) => Caller | null;

/**
 * Registers the `preHandler` hook resolving the caller of every audited `/api/auth/*` request (credentials as on
 * /graphql); call before the auth routes and the hooks that read the answer are registered.
 * @returns the lookup of a request's caller (null for a request not audited or without a valid credential).
 */
export function resolveAuthCallers(app: FastifyInstance, services: AppServices): AuthCallers {
  const callers = new WeakMap<FastifyRequest, Caller>();
  app.addHook("preHandler", async (request) => {
    if (!request.url.startsWith("/api/auth/") || !authAction(request.method, request.url)) return;
    const caller = await authenticate(services, request.headers, "graphql").catch(() => null);
    if (caller) callers.set(request, caller);
  });
  return (request) => callers.get(request) ?? null;
}
