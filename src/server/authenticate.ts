/**
 * Turns request credentials into a {@link Principal}: session cookie, `Authorization: Bearer <key>`
 * or `x-api-key: <key>` (spec: Authentication → Site import API). Shared by HTTP, WebSocket and REST.
 */
import type { IncomingHttpHeaders } from "node:http";
import { resolveCaller } from "../auth/caller.ts";
import type { Principal } from "../modules/access/access-scope.ts";
import type { AppServices } from "./app.ts";

/** Which surface is asking: agent tokens are accepted only by the agent API. */
export type Surface = "graphql" | "rest" | "agent";

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

/** Resolves the principal of a request, or null when credentials are missing or invalid. */
export async function authenticate(
  services: AppServices,
  headers: IncomingHttpHeaders | Record<string, string | undefined>,
  _surface: Surface,
): Promise<Principal | null> {
  const caller = await resolveCaller(services.auth, services.knex, toHeaders(headers));
  if (!caller) return null;
  return { userId: caller.userId, organizationId: caller.organizationId, via: caller.via };
}
