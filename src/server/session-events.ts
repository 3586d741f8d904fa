/**
 * Announces session ends made through better-auth's HTTP API to open subscriptions: a
 * successful `sign-out` closes the WebSockets of that session; `change-password` and the `revoke-session*` calls
 * (which end other sessions too) close every WebSocket of the user. Closing uses 4403 (src/server/subscriptions.ts).
 */
import type { FastifyInstance } from "fastify";
import type { AppServices } from "../modules/services.ts";
import { type AccessChange, publishAccessChange } from "../shared/access-changes.ts";
import type { AuthCallers } from "./auth-callers.ts";

const SESSION_PATHS = new Set(["/api/auth/sign-out"]);
const USER_PATHS = new Set([
  "/api/auth/change-password",
  "/api/auth/revoke-session",
  "/api/auth/revoke-sessions",
  "/api/auth/revoke-other-sessions",
]);

/**
 * Registers the hook announcing each successful session end, for the caller `callers` resolved before the handler
 * (the session being ended). Call before the auth routes are registered.
 */
export function announceSessionEnds(app: FastifyInstance, services: AppServices, callers: AuthCallers): void {
  app.addHook("onResponse", async (request, reply) => {
    if (request.method !== "POST" || reply.statusCode >= 400) return;
    const path = request.url.split("?")[0] ?? "";
    const session = SESSION_PATHS.has(path);
    if (!session && !USER_PATHS.has(path)) return;
    const caller = callers(request);
    if (caller?.via !== "session") return;
    const change: AccessChange = session ? { sessionId: caller.sessionId } : { userId: caller.userId };
    await publishAccessChange(services.pubsub, change, services.log);
  });
}
