/**
 * Invitation link tokens (spec: "Invitation ... carries a link"): 32 random bytes (256 bits, base64url), looked
 * up by SHA-256 hash and kept encrypted so that a resend mails the very same link. The link is
 * `${SKIFF_BASE_URL}/accept-invitation?token=<token>`: the dashboard page there calls `invitationLink`,
 * then `acceptInvitation` or `signUpWithInvitation`.
 */
import { createHash, randomBytes } from "node:crypto";

/** Path of the dashboard's invitation page under SKIFF_BASE_URL. */
export const INVITATION_PAGE_PATH = "/accept-invitation";

/** A new unguessable token (43 base64url characters). */
export function newInvitationToken(): string {
  return randomBytes(32).toString("base64url");
}

/** Lookup hash of a token: SHA-256, hex. */
export function hashInvitationToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

/** The link carrying `token`, under `baseUrl` (no trailing slash). */
export function invitationLink(baseUrl: string, token: string): string {
  return `${baseUrl.replace(/\/+$/, "")}${INVITATION_PAGE_PATH}?token=${encodeURIComponent(token)}`;
}
