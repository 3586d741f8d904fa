/**
 * Audit entries of the sign-in API (`/api/auth/*`, better-auth; docs/audit-log.md): every request that is not a
 * plain read — sign-in and its failures, sign-up, sign-out, two-factor changes and verifications, password changes
 * and resets, session revocations, API key changes — and every OAuth callback (a sign-in) leaves one entry, action
 * `auth.<path>` (`/api/auth/two-factor/enable` → `auth.two_factor_enable`), outcome `ok` (2xx, 3xx) or `refused`.
 * The actor is the request's credential, resolved once before the handler (src/server/auth-callers.ts), or the
 * session a successful sign-in just created (read from its `set-cookie`; the cookie itself is never stored); an unknown caller (a failed sign-in) is `ANONYMOUS`, without an
 * organization. Request and response bodies are never read.
 */
import type { FastifyRequest } from "fastify";
import type { Caller } from "../auth/caller.ts";
import { recordCall } from "../modules/audit/index.ts";
import type { AppServices } from "../modules/services.ts";
import { authenticate } from "./authenticate.ts";

/** The audit action of an `/api/auth/*` request, or null for one that is not audited (plain reads). */
export function authAction(method: string, url: string): string | null {
  const path = new URL(url, "http://skiff.invalid").pathname.replace(/^\/api\/auth\//, "");
  const callback = /^(oauth2\/)?callback\//.test(path);
  if ((method === "GET" || method === "HEAD" || method === "OPTIONS") && !callback) return null;
  const name = callback ? "oauth_callback" : path.replace(/[^A-Za-z0-9]+/g, "_").replace(/^_|_$/g, "");
  return `auth.${name.slice(0, 80)}`;
}

/** The cookies a response sets, as one `cookie` request header (name=value pairs). */
function cookieHeader(response: Response): string {
  return response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0] ?? "")
    .filter((pair) => pair.includes("=") && !pair.endsWith("="))
    .join("; ");
}

/**
 * Records the entry of an answered `/api/auth/*` request (see the file's comment) whose credential resolved to
 * `presented` before the handler (null: none); never throws.
 */
export async function recordAuthCall(
  services: AppServices,
  request: FastifyRequest,
  response: Response,
  presented: Caller | null,
): Promise<void> {
  const action = authAction(request.method, request.url);
  if (!action) return;
  const ok = response.status < 400;
  try {
    let caller = presented;
    if (!caller && ok) {
      const cookie = cookieHeader(response);
      if (cookie) caller = await authenticate(services, { cookie }, "graphql").catch(() => null);
    }
    const source = {
      caller,
      requestId: request.id,
      origin: { surface: "AUTH" as const, clientAddress: request.ip },
    };
    await recordCall(services, services.log, source, { action, outcome: ok ? "ok" : "refused" });
  } catch (error) {
    request.log.error({ err: error, action }, "could not write an audit entry");
  }
}
