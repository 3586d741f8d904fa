/**
 * Signed-in sessions for tests: password accounts for seeded users and sign-in through the real
 * `POST /api/auth/sign-in/email`, returning the `cookie` header to send with GraphQL calls.
 */
import type { Knex } from "knex";
import { expect } from "vitest";
import { setPassword } from "./seed.ts";

/** Password given to every seeded session user. */
export const TEST_PASSWORD = "correct-horse-battery";

/** The `cookie` request header made of a response's `set-cookie` values. */
export function cookieOf(response: Response): string {
  return response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}

/** POSTs JSON to `${url}/api/auth${path}` (no Origin header, like a script). */
export function postAuth(url: string, path: string, body: unknown, cookie?: string): Promise<Response> {
  return fetch(`${url}/api/auth${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(cookie ? { cookie } : {}) },
    body: JSON.stringify(body),
  });
}

/** Signs in with e-mail and password; expects success. @returns the session cookie header. */
export async function signIn(url: string, email: string, password = TEST_PASSWORD): Promise<string> {
  const res = await postAuth(url, "/sign-in/email", { email, password });
  expect(res.status, `sign-in of ${email}`).toBe(200);
  return cookieOf(res);
}

/** Gives a seeded user the password {@link TEST_PASSWORD} and signs in. @returns the session cookie header. */
export async function sessionFor(knex: Knex, url: string, user: { userId: string; email: string }): Promise<string> {
  await setPassword(knex, user.userId, TEST_PASSWORD);
  return signIn(url, user.email);
}
