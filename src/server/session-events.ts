/**
 * Announces session ends made through better-auth's HTTP API to open subscriptions: a
 * successful `sign-out` closes the WebSockets of that session; `change-password` and the `revoke-session*` calls
 * (which end other sessions too) close every WebSocket of the user. Closing uses 4403 (src/server/subscriptions.ts).
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { AppServices } from "../modules/services.ts";
import { type AccessChange, publishAccessChange } from "../shared/access-changes.ts";
import { authenticate } from "./authenticate.ts";

const SESSION_PATHS = new Set(["/api/auth/sign-out"]);
const USER_PATHS = new Set([
  "/api/auth/change-password",
  "/api/auth/revoke-session",
  "/api/auth/revoke-sessions",
  "/api/auth/revoke-other-sessions",
]);

/** Registers the hooks; call before the auth routes are registered. */
export function announceSessionEnds(app: FastifyInstance, services: AppServices): void {
  const pending = new WeakMap<FastifyRequest, AccessChange>();
  app.addHook("preHandler", async (request) => {
    if (request.method !== "POST") return;
    const path = request.url.split("?")[0] ?? "";
    if (!SESSION_PATHS.has(path) && !USER_PATHS.has(path)) return;
    const caller = await authenticate(services, request.headers, "graphql").catch(() => null);
    if (caller?.via !== "session") return;
    pending.set(request, SESSION_PATHS.has(path) ? { sessionId: caller.sessionId } : { userId: caller.userId });
  });
  app.addHook("onResponse", async (request, reply) => {
    const change = pending.get(request);
    if (change && reply.statusCode < 400) await publishAccessChange(services.pubsub, change, services.log);
  });
}
