/**
 * OAuth sign-in providers (spec "Sign-in and accounts": GitHub, Google, GitLab, depending on platform
 * configuration). A provider is enabled when both its client id and secret are set; every one is started with
 * `POST /api/auth/sign-in/social {"provider": "github" | "google" | "gitlab", "callbackURL": ...}` and comes back
 * to `/api/auth/callback/<provider>` (register that URL, under SKIFF_BASE_URL, with the provider).
 * - GitHub: better-auth's built-in provider (GitHub is OAuth 2 without OpenID Connect; it reads `/user/emails`).
 * - Google and GitLab: OpenID Connect through better-auth's generic OAuth plugin, configured by discovery from
 *   `GOOGLE_ISSUER` (default https://accounts.google.com) and `GITLAB_ISSUER` (default https://gitlab.com, or a
 *   self-managed GitLab); ID tokens are verified against the issuer's keys. Discovery runs when the auth instance
 *   starts: an unreachable issuer disables that provider (logged) until the next start.
 */
import type { GenericOAuthConfig } from "better-auth/plugins";
import type { Config } from "../config.ts";

/** Default issuers of the OpenID Connect providers. */
export const DEFAULT_ISSUERS = { google: "https://accounts.google.com", gitlab: "https://gitlab.com" } as const;

/** better-auth `socialProviders` option: GitHub when GITHUB_CLIENT_ID and GITHUB_CLIENT_SECRET are set. */
export function builtInProviders(config: Config) {
  const { GITHUB_CLIENT_ID, GITHUB_CLIENT_SECRET } = config;
  return GITHUB_CLIENT_ID && GITHUB_CLIENT_SECRET
    ? { github: { clientId: GITHUB_CLIENT_ID, clientSecret: GITHUB_CLIENT_SECRET } }
    : {};
}

function oidc(providerId: string, clientId: string, clientSecret: string, issuer: string): GenericOAuthConfig {
  return {
    providerId,
    clientId,
    clientSecret,
    discoveryUrl: `${issuer.replace(/\/+$/, "")}/.well-known/openid-configuration`,
    scopes: ["openid", "email", "profile"],
    pkce: true,
    requireIdTokenVerification: true,
  };
}

/** Generic OAuth plugin configurations: Google and GitLab (OpenID Connect) when their client id and secret are set. */
export function openIdProviders(config: Config): GenericOAuthConfig[] {
  const out: GenericOAuthConfig[] = [];
  if (config.GOOGLE_CLIENT_ID && config.GOOGLE_CLIENT_SECRET) {
    const issuer = config.GOOGLE_ISSUER ?? DEFAULT_ISSUERS.google;
    out.push(oidc("google", config.GOOGLE_CLIENT_ID, config.GOOGLE_CLIENT_SECRET, issuer));
  }
  if (config.GITLAB_CLIENT_ID && config.GITLAB_CLIENT_SECRET) {
    const issuer = config.GITLAB_ISSUER ?? DEFAULT_ISSUERS.gitlab;
    out.push(oidc("gitlab", config.GITLAB_CLIENT_ID, config.GITLAB_CLIENT_SECRET, issuer));
  }
  return out;
}
