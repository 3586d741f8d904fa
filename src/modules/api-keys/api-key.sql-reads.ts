/**
 * Compiled-read SQL of schema/api-keys.graphql (src/reads/compiler.ts), the only implementation of these reads:
 * an organization's API keys, newest first — owners and admins see everyone's, members only their own, another
 * organization's nothing — and where a key is found by id. `lastUsedAt` and `current` depend on the request's
 * key (the caller's `apiKeyId`). The creator is declared by the organizations module (users).
 */

import { can } from "../../auth/access/policy.ts";
import {
  column,
  isoTimeJson,
  type SqlReadCompiler,
  type SqlReadRows,
  type SqlReadTypes,
  timestamp,
} from "../../reads/index.ts";

/** The condition "API key row `alias` is visible to the caller" (SQL; keys are personal, see the file's comment). */
function visibleApiKey(compiler: SqlReadCompiler, alias: string): string {
  const { caller } = compiler;
  const parts = [...caller.orgs.values()].map((access) => {
    const org = `${alias}.organization_id = ${compiler.param(access.organizationId)}`;
    return can(access, "apiKey:manage-others")
      ? org
      : `(${org} and ${alias}.reference_id = ${compiler.param(caller.userId ?? "")})`;
  });
  return parts.length ? `(${parts.join(" or ")})` : "false";
}

/** Where API keys are found by id, with the caller's visibility. */
export const apiKeySqlRows: SqlReadRows = {
  ApiKey: { table: "api_keys", visible: visibleApiKey },
};

/** The key authenticating the request, as SQL (null: none). */
const currentKey = (compiler: SqlReadCompiler) =>
  compiler.caller.apiKeyId === null ? null : compiler.param(compiler.caller.apiKeyId);

/** Organization.apiKeys and ApiKey. */
export const apiKeySqlReads: SqlReadTypes = {
  Organization: {
    apiKeys: ({ compiler, alias, nodes }) => {
      const k = compiler.alias();
      const from = `from api_keys ${k} where ${k}.organization_id = ${alias}.id and ${visibleApiKey(compiler, k)}`;
      return compiler.list("ApiKey", k, nodes, from, `${k}.id desc`);
    },
  },
  ApiKey: {
    id: column("id"),
    name: ({ alias }) => `coalesce(${alias}.name, '')`,
    prefix: ({ alias }) => `coalesce(${alias}.start, '')`,
    createdAt: timestamp("created_at"),
    // The key making this request is in use now; its stored time is written in the background (src/auth/credentials/api-key.ts).
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
export function apiKeyCredentialSelect(compiler: SqlReadCompiler): string | null {
  const { apiKeyId } = compiler.caller;
  if (!apiKeyId) return null;
  return `select k.name, k.start as prefix, k.created_at, k.last_request as last_used_at, k.expires_at
    from api_keys k where k.id = ${compiler.param(apiKeyId)}`;
}
