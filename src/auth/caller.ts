/**
 * Who is calling: the one type every layer uses for the authenticated caller of a request, whichever credential
 * it presented (src/auth/credentials/: an account API key, a session cookie, a user JWT, an agent token). Spec:
 * "Authentication" and "Organization and access resources" (a key or token is bound to one organization and
 * carries its creator's current role there; a session acts on its active organization, else its first
 * membership).
 */
import type { OrgAccess, Role } from "./access/standing.ts";

/** The credential a caller presented: a user JWT acts as the session it was issued for (`"session"`). */
export type CredentialKind = "session" | "apiKey" | "agentToken";

/** The authenticated caller of one request. */
export interface Caller {
  userId: string;
  /** The user's e-mail, read with a session, user JWT or API key (an agent token does not read it). */
  email?: string;
  /** The organization the request acts on: the key's or token's, or the session's active one (else first membership). */
  organizationId: string | null;
  /** The caller's role in `organizationId` when the credential was resolved; null when there is no organization. */
  role?: Role | null;
  /** The caller's member row in `organizationId`; null when there is no organization. */
  memberId?: string | null;
  via: CredentialKind;
  /** The better-auth `sessions` row id when `via` is "session" and a cookie was presented. */
  sessionId?: string;
  /** The `api_keys` row id when `via` is "apiKey". */
  apiKeyId?: string;
  /** The `agent_tokens` row id when `via` is "agentToken". */
  agentTokenId?: string;
  /**
   * True: the caller acts on `organizationId` alone — a session on its active organization, as an API key or agent
   * token always does on its bound one. Set by the transport for REST rows that do not name the organization and
   * for MCP tool calls (spec: Site import rule 8: GET by id answers 404 for an import of another organization than
   * the list's).
   */
  activeOrganizationOnly?: boolean;
  /**
   * An API key's or agent token's standing in `organizationId`, read in the credential's own statement. The first
   * access scope built for the caller takes it (and clears it), so a request authenticated with a key runs no
   * membership query; later scopes of a long-lived caller (WebSocket operations, events) load afresh.
   */
  access?: OrgAccess;
  /**
   * A session's (or user JWT's) every membership with its standing, the acting one first, read with the session:
   * taken by the first access scope as `access` is, so a signed-in request runs no membership query either.
   */
  memberships?: OrgAccess[];
}
