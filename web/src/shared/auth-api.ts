/**
 * better-auth's HTTP endpoints under `/api/auth` used by the pages: sign-up, sign-in (with the TOTP step),
 * sign-out, session, social sign-in; {@link authRequest} for the others (account pages). Errors come back as {@link AuthError} with words fit for the page.
 */

/** An auth request that failed: `status` is the HTTP status, `message` is shown to the person. */
export class AuthError extends Error {
  readonly status: number;
  readonly code: string | undefined;
  constructor(status: number, message: string, code?: string) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/** The signed-in person as `/api/auth/get-session` reports it. */
export interface SessionUser {
  id: string;
  email: string;
  name: string;
  emailVerified: boolean;
  twoFactorEnabled?: boolean;
}

/** The wait a 429's `Retry-After` (seconds) names, in words ("15 minutes", "a minute"); null when it names none. */
function waitOf(retryAfter: string | null): string | null {
  const seconds = Number(retryAfter);
  if (!retryAfter || !Number.isFinite(seconds) || seconds <= 0) return null;
  const minutes = Math.ceil(seconds / 60);
  return minutes <= 1 ? "a minute" : `${minutes} minutes`;
}

/**
 * better-auth's codes of a two-factor step that has ended (too many wrong codes, or its cookie expired or is gone):
 * no code can finish it; the sign-in starts again from the password.
 */
export const SECOND_FACTOR_ENDED = new Set(["TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE", "INVALID_TWO_FACTOR_COOKIE"]);

function explain(status: number, code: string | undefined, message: string | undefined, retryAfter: string | null) {
  if (status === 429) {
    const wait = waitOf(retryAfter);
    return wait ? `Too many attempts. Wait ${wait} and try again.` : "Too many attempts. Wait and try again later.";
  }
  if (code === "EMAIL_NOT_VERIFIED")
    return "Your e-mail address is not verified yet. Open the link in the verification e-mail we sent you, then sign in.";
  if (code === "INVALID_EMAIL_OR_PASSWORD") return "Wrong e-mail address or password.";
  if (code === "USER_ALREADY_EXISTS" || code === "USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL")
    return "An account with this e-mail address already exists. Sign in instead.";
  if (code === "PASSWORD_TOO_SHORT") return "The password is too short: at least 8 characters.";
  if (code === "INVALID_CODE") return "That code is not valid. Try again.";
  if (code && SECOND_FACTOR_ENDED.has(code)) {
    return "Too many wrong codes, or the code step timed out: sign in with your password again.";
  }
  if (code === "INVALID_BACKUP_CODE") return "That recovery code is not valid or was used already.";
  if (code === "INVALID_PASSWORD") return "The password is not right.";
  if (code === "INVALID_TOKEN") return "This link is not valid any more (used or expired). Ask for a new one.";
  if (code === "FAILED_TO_UNLINK_LAST_ACCOUNT")
    return "This is your only way to sign in: link another provider or set a password before removing it.";
  if (code === "SESSION_EXPIRED") return "For this change, sign in again first (your session is too old).";
  return message || `The request failed (HTTP ${status}).`;
}

/**
 * Calls better-auth's `/api/auth${path}`: POST with a JSON `body`, or GET when `body` is undefined.
 * @returns the answer's JSON. @throws AuthError (status and words for the page) when it is not 2xx.
 */
export async function authRequest<T>(path: string, body?: unknown): Promise<T> {
  const res = await fetch(`/api/auth${path}`, {
    method: body === undefined ? "GET" : "POST",
    credentials: "same-origin",
    ...(body === undefined ? {} : { headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
  });
  const text = await res.text();
  const data = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  if (!res.ok) {
    const code = typeof data.code === "string" ? data.code : undefined;
    throw new AuthError(
      res.status,
      explain(res.status, code, data.message as string | undefined, res.headers.get("retry-after")),
      code,
    );
  }
  return data as T;
}

function post<T>(path: string, body: unknown): Promise<T> {
  return authRequest<T>(path, body ?? {});
}

/** Creates an account; better-auth mails a verification link leading to `callbackURL` once opened. */
export function signUp(input: { name: string; email: string; password: string }): Promise<unknown> {
  return post("/sign-up/email", { ...input, callbackURL: "/sign-in?verified=1" });
}

/** Signs in with e-mail and password. @returns `twoFactor: true` when a TOTP or recovery code must follow. */
export async function signIn(email: string, password: string): Promise<{ twoFactor: boolean }> {
  const data = await post<{ twoFactorRedirect?: boolean }>("/sign-in/email", { email, password });
  return { twoFactor: data.twoFactorRedirect === true };
}

/** Finishes a two-factor sign-in with an authenticator code (6 digits) or a recovery code. */
export function verifySecondFactor(code: string, kind: "totp" | "recovery"): Promise<unknown> {
  return kind === "totp" ? post("/two-factor/verify-totp", { code }) : post("/two-factor/verify-backup-code", { code });
}

/** Starts an OAuth sign-in; the browser is sent to the provider. */
export async function signInSocial(provider: string, callbackURL: string): Promise<void> {
  const builtIn = ["github", "google"].includes(provider);
  const data = await post<{ url?: string }>(builtIn ? "/sign-in/social" : "/sign-in/oauth2", {
    ...(builtIn ? { provider } : { providerId: provider }),
    callbackURL,
  });
  if (data.url) location.assign(data.url);
}

/** Ends the session. */
export async function signOut(): Promise<void> {
  await post("/sign-out", {});
}

/** The signed-in person, or null. */
export async function getSession(): Promise<SessionUser | null> {
  const res = await fetch("/api/auth/get-session", { credentials: "same-origin" });
  if (!res.ok) return null;
  const data = (await res.json()) as { user?: SessionUser } | null;
  return data?.user ?? null;
}
