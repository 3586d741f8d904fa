/**
 * How a caller runs one write statement that another module builds for it (the table's owner: docs/architecture.md,
 * "Tables owned"): as it is, or through a runner of the caller's own — a mutation's audit entry written by the same
 * statement (`writeWithAuditEntry`, src/modules/audit). Statements given to a runner return `id`.
 */
import type { Knex } from "knex";

/** Runs `statement` (a knex insert, update or delete with `returning`) and answers its rows. */
export type WriteRunner = (statement: Knex.QueryBuilder) => Promise<unknown[]>;

/** Runs the statement as it is. */
export const runAsIs: WriteRunner = async (statement) => (await statement) as unknown[];
