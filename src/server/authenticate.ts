/**
 * Turns request credentials into a {@link Principal}: session cookie, `Authorization: Bearer <key>`
 * or `x-api-key: <key>` (spec: Authentication → Site import API). Shared by HTTP, WebSocket and REST.
 */
import type { IncomingHttpHeaders } from "node:http";
import { resolveCaller } from "../auth/caller.ts";
import type { Principal } from "../modules/access/access-scope.ts";
import { authenticateAgent } from "../modules/agent/agent-auth.ts";
import type { AppServices } from "../modules/services.ts";
import type { Surface } from "../shared/rest-route.ts";

export type { Surface };

/** Converts Node's header object into WHATWG Headers. */
export function toHeaders(headers: IncomingHttpHeaders | Record<string, string | undefined>): Headers {
  const out = new Headers();
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) out.append(name, v);
    else out.set(name, String(value));
  }
  return out;
}

/**
 * Resolves the principal of a request, or null when credentials are missing or invalid. The `agent` surface
 * accepts agent tokens only; every other surface looks keys up among account API keys only, so an agent token
 * fails there like any unknown key (spec: Authentication → Agent API, rule 3).
 * @throws UnauthenticatedError on the `agent` surface when the token is over its rate limit.
 */
export async function authenticate(
  services: AppServices,
  headers: IncomingHttpHeaders | Record<string, string | undefined>,
  surface: Surface,
): Promise<Principal | null> {
  if (surface === "agent") return authenticateAgent(services, toHeaders(headers));
  const caller = await resolveCaller(services.auth, services.knex, toHeaders(headers));
  if (!caller) return null;
  const { userId, organizationId, via, sessionId, apiKeyId } = caller;
  return { userId, organizationId, via, sessionId, apiKeyId };
}
