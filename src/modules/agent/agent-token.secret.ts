/**
 * Agent token secrets (spec: Authentication → Agent API): `skiff_agt_` followed by 43 base64url characters
 * (32 random bytes), distinguishable at a glance from account API keys (`skiff_...`). Only the SHA-256 hash is
 * stored; authentication looks the hash up in `agent_tokens`, never trusting the prefix alone.
 */
import { randomBytes } from "node:crypto";
import { hashAgentToken } from "../../auth/credentials/agent-token.ts";

/** Prefix of every agent token. */
export const AGENT_TOKEN_PREFIX = "skiff_agt_";

/** Number of leading characters kept in clear (`agent_tokens.prefix`) so a person can recognise a token. */
const SHOWN_CHARS = AGENT_TOKEN_PREFIX.length + 6;

/** A freshly generated token: the secret (shown once), its stored hash and its recognisable prefix. */
export interface GeneratedAgentToken {
  token: string;
  hash: string;
  prefix: string;
}

/** Generates a new random agent token. */
export function generateAgentToken(): GeneratedAgentToken {
  const token = `${AGENT_TOKEN_PREFIX}${randomBytes(32).toString("base64url")}`;
  return { token, hash: hashAgentToken(token), prefix: token.slice(0, SHOWN_CHARS) };
}
