/**
 * Request logging without credentials in URLs: some URLs carry a secret — the deploy
 * trigger's token (`/api/deploy/<token>`), better-auth's password-reset token (`/api/auth/reset-password/<token>`),
 * invitation, e-mail verification and OAuth `token`/`code`/`state` query parameters. Logged request lines keep the
 * route and replace those parts with `[redacted]`; headers are not logged (the logger also redacts the credential
 * headers should anything log them).
 */

/** What replaces a secret part of a URL in logs. */
export const REDACTED_PART = "[redacted]";

/** Path prefixes whose next segment is a credential. */
const SECRET_SEGMENT_AFTER = ["/api/deploy/", "/api/auth/reset-password/"];

/** Query parameters whose values are credentials (compared case-insensitively). */
const SECRET_QUERY_KEYS = new Set([
  "token",
  "code",
  "state",
  "secret",
  "key",
  "api_key",
  "apikey",
  "password",
  "signature",
  "access_token",
  "refresh_token",
  "id_token",
]);

/** `url` (path and query, as in a request line) with its credential parts replaced by {@link REDACTED_PART}. */
export function redactUrl(url: string): string {
  const queryAt = url.indexOf("?");
  let path = queryAt === -1 ? url : url.slice(0, queryAt);
  const query = queryAt === -1 ? "" : url.slice(queryAt + 1);
  for (const prefix of SECRET_SEGMENT_AFTER) {
    if (path.startsWith(prefix) && path.length > prefix.length) {
      const rest = path.slice(prefix.length);
      const slash = rest.indexOf("/");
      path = `${prefix}${REDACTED_PART}${slash === -1 ? "" : rest.slice(slash)}`;
    }
  }
  if (!query) return path;
  const redacted = query
    .split("&")
    .map((pair) => {
      const eq = pair.indexOf("=");
      const key = eq === -1 ? pair : pair.slice(0, eq);
      let name = key;
      try {
        name = decodeURIComponent(key);
      } catch {
        // a malformed escape: compare it as written
      }
      return eq !== -1 && SECRET_QUERY_KEYS.has(name.toLowerCase()) ? `${key}=${REDACTED_PART}` : pair;
    })
    .join("&");
  return `${path}?${redacted}`;
}

/** The fields of a request Fastify's `req` serializer logs. */
interface LoggedRequest {
  method?: string;
  url?: string;
  headers?: Record<string, unknown>;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
}

/** pino `req` serializer: Fastify's default fields, the URL through {@link redactUrl}. */
export function requestSerializer(req: LoggedRequest) {
  return {
    method: req.method,
    url: typeof req.url === "string" ? redactUrl(req.url) : req.url,
    version: req.headers?.["accept-version"],
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  };
}
