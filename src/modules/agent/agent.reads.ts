/**
 * Compiled-read SQL of schema/agent.graphql (src/reads/compiler.ts), the only implementation of these reads:
 * the caller's own agent token in the organization the request acts on (null without one, or without an active
 * organization the caller belongs to), never the secret or its hash.
 */
import { column, type ReadCompiler, type ReadTypes, timestamp } from "../../reads/index.ts";

/** Query.agentToken and AgentToken. */
export const agentReads: ReadTypes = {
  Query: {
    agentToken: ({ compiler, nodes, returnType }) => {
      const { caller } = compiler;
      const organizationId = caller.organizationId;
      if (!organizationId || !caller.orgs.has(organizationId) || !caller.userId) return "null::json";
      const t = compiler.alias();
      const where = `where ${t}.organization_id = ${compiler.param(organizationId)} and ${t}.user_id = ${compiler.param(caller.userId)}`;
      return compiler.one(returnType, t, nodes, `from agent_tokens ${t} ${where}`);
    },
  },
  AgentToken: {
    prefix: column("prefix"),
    createdAt: timestamp("created_at"),
    lastUsedAt: timestamp("last_used_at"),
    expiresAt: timestamp("expires_at"),
  },
};

/**
 * `Viewer.credential`'s row for a request authenticated with an agent token (organizations'
 * `provideCredentialSource`): the caller's one token in the organization; never the hash.
 */
export function agentTokenCredentialSelect(compiler: ReadCompiler): string | null {
  const { organizationId, userId } = compiler.caller;
  if (!organizationId || !userId) return null;
  return `select null::text as name, t.prefix, t.created_at, t.last_used_at, t.expires_at from agent_tokens t
    where t.organization_id = ${compiler.param(organizationId)} and t.user_id = ${compiler.param(userId)}`;
}
