/**
 * Small HTTP client for the agent API tests: GET with an agent token in either header, JSON body decoded.
 */

/** Status, headers and decoded JSON body of one response. */
export interface AgentResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
}

/** Error body of the agent API. */
export interface AgentErrorBody {
  message: string;
  code: string;
  issues?: Array<{ path: Array<string | number>; message: string }>;
}

/** GETs `${url}${path}` sending `token` as `x-api-key` (default) or `Authorization: Bearer`. */
export async function agentGet<T = unknown>(
  url: string,
  path: string,
  token?: string,
  header: "x-api-key" | "bearer" = "x-api-key",
  extraHeaders: Record<string, string> = {},
): Promise<AgentResponse<T>> {
  const headers: Record<string, string> = { ...extraHeaders };
  if (token) {
    if (header === "bearer") headers.authorization = `Bearer ${token}`;
    else headers["x-api-key"] = token;
  }
  const res = await fetch(`${url}${path}`, { headers });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: (text ? JSON.parse(text) : null) as T };
}

/** The `cookie` request header made of a response's `set-cookie` values. */
export function cookieOf(response: Response): string {
  return response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}

/** Signs in by e-mail and password on `url`; returns the session cookie header. */
export async function signIn(url: string, email: string, password: string): Promise<string> {
  const res = await fetch(`${url}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password }),
  });
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
  return cookieOf(res);
}
