/**
 * Compiled-read SQL of schema/api-keys.graphql (src/reads/compiler.ts), the only implementation of these reads:
 * an organization's API keys, newest first — owners and admins see everyone's, members only their own, another
 * organization's nothing (api-key.tables.ts). `lastUsedAt` and `current` depend on the request's key (the caller's
 * `apiKeyId`). The creator is declared by the organizations module (users).
 */

import { hasMany, isoTimeJson, type ReadCompiler, type ReadTypes } from "../../reads/index.ts";
import { apiKeyTable } from "./api-key.tables.ts";

/** The key authenticating the request, as SQL (null: none). */
const currentKey = (compiler: ReadCompiler) =>
  compiler.caller.apiKeyId === null ? null : compiler.param(compiler.caller.apiKeyId);

/** Organization.apiKeys and ApiKey. */
export const apiKeyReads: ReadTypes = {
  Organization: {
    apiKeys: hasMany(apiKeyTable, "organization_id", "$.id desc"),
  },
  ApiKey: {
    name: ({ alias }) => `coalesce(${alias}.name, '')`,
    prefix: ({ alias }) => `coalesce(${alias}.start, '')`,
    // The key making this request is in use now; its stored time is written in the background (src/auth/caller.ts).
    lastUsedAt: ({ compiler, alias }) => {
      const key = currentKey(compiler);
      const stored = `${alias}.last_request`;
      return isoTimeJson(key ? `(case when ${alias}.id = ${key} then now() else ${stored} end)` : stored);
    },
    current: ({ compiler, alias }) => {
      const key = currentKey(compiler);
      return key ? `(${alias}.id = ${key})` : "false";
    },
  },
};

/**
 * `Viewer.credential`'s row for a request authenticated with an API key (organizations' `provideCredentialSource`):
 * its name, shown start, creation, last use and expiry; never the hash.
 */
export function apiKeyCredentialSelect(compiler: ReadCompiler): string | null {
  const { apiKeyId } = compiler.caller;
  if (!apiKeyId) return null;
  return `select k.name, k.start as prefix, k.created_at, k.last_request as last_used_at, k.expires_at
    from api_keys k where k.id = ${compiler.param(apiKeyId)}`;
}
