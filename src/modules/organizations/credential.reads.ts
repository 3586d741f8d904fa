/**
 * Compiled-read SQL of `Viewer.credential` (schema/organizations.graphql): what the request's credential is, read in
 * the viewer's statement. A session is this module's own row (`sessions`), a user JWT a row of its own (it names no
 * session: {@link USER_JWT_CREDENTIAL}); an API key's and an agent token's rows belong to their modules, which hand
 * in their SELECT with {@link provideCredentialSource} (they are above this module). Grants and surfaces come from
 * the caller. Never a secret or a hash: the selects name only the listed columns.
 */
import { column, type ReadCompiler, type ReadField, type ReadTypes, timestamp } from "../../reads/index.ts";

/**
 * A SELECT of the request's credential row as `name`, `prefix`, `created_at`, `last_used_at`, `expires_at` (text,
 * text, timestamptz ×3), for the compiler's caller; null when the caller has none of this kind.
 */
export type CredentialSource = (compiler: ReadCompiler) => string | null;

const sources = new Map<"apiKey" | "agentToken", CredentialSource>();

/** Registers how the credential rows of kind `via` are read (called by the api-keys and agent modules). */
export function provideCredentialSource(via: "apiKey" | "agentToken", source: CredentialSource): void {
  sources.set(via, source);
}

const KIND = { session: "session", apiKey: "api_key", agentToken: "agent_token" } as const;

/** Surfaces of each kind (`mcp`: where the instance serves `/mcp`, see SKIFF_MCP). */
const SURFACES = { session: ["graphql", "rest"], apiKey: ["graphql", "rest"], agentToken: ["agent", "mcp"] } as const;

/**
 * The credential row of a user JWT, which acts as a session but names none (its claims are the user's; Skiff signs
 * no session id into it): the request's time (the database's clock) as creation, no recorded use and no expiry
 * read (the JWT's own `exp` claim says it: at most 15 minutes after `GET /api/auth/token`), so that
 * `Viewer.credential` is never null. The schema's `Credential` documents these values.
 */
const USER_JWT_CREDENTIAL = `select null::text as name, null::text as prefix, now() as created_at,
  null::timestamptz as last_used_at, null::timestamptz as expires_at`;

/**
 * The SELECT of the caller's credential row, or null (no credential, or its row is gone). A session's is its
 * `sessions` row; a user JWT's (a session caller without one) is {@link USER_JWT_CREDENTIAL}.
 */
function credentialSelect(compiler: ReadCompiler): string | null {
  const { via, sessionId } = compiler.caller;
  if (via === "session") {
    if (!sessionId) return USER_JWT_CREDENTIAL;
    return `select null::text as name, null::text as prefix, s.created_at, s.updated_at as last_used_at, s.expires_at
      from sessions s where s.id = ${compiler.param(sessionId)}`;
  }
  return via ? (sources.get(via)?.(compiler) ?? null) : null;
}

/** `Viewer.credential`: the row of {@link credentialSelect} as a `Credential` (JSON null when there is none). */
export function viewerCredentialSql({ compiler, nodes, returnType }: ReadField) {
  const select = credentialSelect(compiler);
  if (!select) return "null::text";
  const c = compiler.alias();
  return compiler.one(returnType, c, nodes, `from (${select}) ${c}`);
}

/** Credential and CredentialGrants (value types, read from the credential's row and the caller). */
export const credentialReads: ReadTypes = {
  Credential: {
    kind: ({ compiler }) => `${compiler.param(KIND[compiler.caller.via ?? "apiKey"])}::text`,
    name: column("name"),
    prefix: column("prefix"),
    createdAt: timestamp("created_at"),
    lastUsedAt: timestamp("last_used_at"),
    expiresAt: timestamp("expires_at"),
    grants: ({ compiler, nodes, returnType }) => {
      const { organizationId, orgs } = compiler.caller;
      const grants = organizationId ? orgs.get(organizationId)?.grants : null;
      if (!grants) return "null::text";
      const g = compiler.alias();
      const ids = (set: Set<string>) => compiler.param(JSON.stringify([...set].sort()));
      const from = `from (select ${ids(grants.projectIds)}::jsonb as project_ids,
        ${ids(grants.applicationIds)}::jsonb as application_ids) ${g}`;
      return compiler.one(returnType, g, nodes, from);
    },
    surfaces: ({ compiler }) => `${compiler.param(JSON.stringify(SURFACES[compiler.caller.via ?? "apiKey"]))}::jsonb`,
  },
  CredentialGrants: {
    projectIds: column("project_ids"),
    applicationIds: column("application_ids"),
  },
};
