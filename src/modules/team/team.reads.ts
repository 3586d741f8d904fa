/**
 * Compiled-read SQL of invitations (schema/team.graphql; src/reads/compiler.ts), the only implementation of
 * these reads: every member of an organization sees its invitations, newest first, filtered by the spec's status
 * (derived from the stored status and `expires_at` at the request's clock, as invitation.model.ts's
 * `invitationStatus`). The inviter is declared by the organizations module (users); `link` (a decrypted token,
 * owners and admins only) stays a resolver of the row (team.resolvers.ts).
 */
import type { ComputedColumns, ReadCompiler, ReadTypes } from "../../reads/index.ts";
import { invitationTable } from "./team.tables.ts";

/**
 * The spec status of invitation row `alias` at the request's clock (SQL text), as `invitationStatus` derives it:
 * the expiry compared to the millisecond, as a JavaScript `Date` holds it.
 */
function statusSql(compiler: ReadCompiler, alias: string): string {
  const now = compiler.param(compiler.caller.now.toISOString());
  return `(case when ${alias}.status = 'accepted' then 'accepted'
    when ${alias}.status in ('canceled', 'rejected') then 'revoked'
    when date_trunc('milliseconds', ${alias}.expires_at) > ${now}::timestamptz then 'pending'
    else 'expired' end)`;
}

/** Organization.invitations(status:) and Invitation. */
export const teamReads: ReadTypes = {
  Organization: {
    invitations: ({ compiler, alias, args, nodes }) => {
      const i = compiler.alias();
      const status =
        typeof args.status === "string" ? ` and ${statusSql(compiler, i)} = ${compiler.param(args.status)}` : "";
      const from = `from ${invitationTable.table} ${i} where ${i}.organization_id = ${alias}.id${status}`;
      return compiler.list("Invitation", i, nodes, from, `${i}.id desc`);
    },
  },
  Invitation: {
    status: ({ compiler, alias }) => statusSql(compiler, alias),
  },
};

/** What of its row each computed field of the module reads (ComputedColumns): the pending invitation's link. */
export const teamComputedColumns: ComputedColumns = {
  Invitation: { link: ["organization_id", "status", "token_encrypted", "expires_at"] },
};
