/**
 * The account's own endpoints of better-auth (`/api/auth/*`, docs/sign-in.md): profile, password, forgot and reset
 * password, two-factor, sessions and linked sign-in providers. Each throws {@link AuthError} with words for the page.
 */
import { authRequest } from "../../shared/auth-api.ts";

/** One session of the account as `/list-sessions` reports it (`token` is the stored hash: an identifier). */
export interface AccountSession {
  id: string;
  token: string;
  ipAddress?: string | null;
  userAgent?: string | null;
  createdAt: string;
  updatedAt: string;
}

/** One way to sign in: `credential` (e-mail and password) or an OAuth provider (`github`, `google`, `gitlab`). */
export interface LinkedAccount {
  id: string;
  providerId: string;
  createdAt: string;
}

/** Mails a reset link to `email` when an account has it (the answer is the same either way). */
export function requestPasswordReset(email: string): Promise<unknown> {
  return authRequest("/request-password-reset", { email, redirectTo: "/reset-password" });
}

/** Sets a new password with the token of a reset link; every session of the account ends. */
export function resetPassword(token: string, newPassword: string): Promise<unknown> {
  return authRequest("/reset-password", { token, newPassword });
}

/** Changes the password (the current one is required); the account's other sessions end. */
export function changePassword(currentPassword: string, newPassword: string): Promise<unknown> {
  return authRequest("/change-password", { currentPassword, newPassword, revokeOtherSessions: true });
}

/** Changes the display name. */
export function updateName(name: string): Promise<unknown> {
  return authRequest("/update-user", { name });
}

/** Mails a verification link to `newEmail`; the address changes once that link is opened. */
export function changeEmail(newEmail: string): Promise<unknown> {
  return authRequest("/change-email", { newEmail, callbackURL: "/account?email-changed=1" });
}

/** Starts two-factor enrolment: the authenticator URI (`otpauth://…`) and the recovery codes. */
export function enableTwoFactor(password: string): Promise<{ totpURI: string; backupCodes: string[] }> {
  return authRequest("/two-factor/enable", { password });
}

/** Confirms enrolment (or a sign-in) with a 6-digit authenticator code. */
export function verifyTotp(code: string): Promise<unknown> {
  return authRequest("/two-factor/verify-totp", { code });
}

/** Replaces the recovery codes with 10 new ones (the old ones stop working). */
export async function regenerateRecoveryCodes(password: string): Promise<string[]> {
  return (await authRequest<{ backupCodes: string[] }>("/two-factor/generate-backup-codes", { password })).backupCodes;
}

/** Turns two-factor off. */
export function disableTwoFactor(password: string): Promise<unknown> {
  return authRequest("/two-factor/disable", { password });
}

/** The account's sessions and the id of the one this page uses. */
export async function listSessions(): Promise<{ sessions: AccountSession[]; currentId: string | null }> {
  const [sessions, current] = await Promise.all([
    authRequest<AccountSession[]>("/list-sessions"),
    authRequest<{ session?: { id: string } } | null>("/get-session"),
  ]);
  return { sessions, currentId: current?.session?.id ?? null };
}

/** Signs one session out, by the `token` `/list-sessions` shows. */
export function revokeSession(token: string): Promise<unknown> {
  return authRequest("/revoke-session", { token });
}

/** Signs every session out but this one. */
export function revokeOtherSessions(): Promise<unknown> {
  return authRequest("/revoke-other-sessions", {});
}

/** The account's ways to sign in. */
export function listAccounts(): Promise<LinkedAccount[]> {
  return authRequest<LinkedAccount[]>("/list-accounts");
}

/** Links an OAuth provider: the browser goes to the provider and comes back to `/account`. */
export async function linkProvider(provider: string): Promise<void> {
  const builtIn = ["github", "google"].includes(provider);
  const data = await authRequest<{ url?: string }>(builtIn ? "/link-social" : "/oauth2/link", {
    ...(builtIn ? { provider } : { providerId: provider }),
    callbackURL: "/account",
  });
  if (data.url) location.assign(data.url);
}

/** Removes a way to sign in; better-auth refuses the last one. */
export function unlinkAccount(accountId: string): Promise<unknown> {
  return authRequest("/unlink-account", { accountId });
}
