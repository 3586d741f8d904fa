/**
 * Compiled-read SQL of the Deployment type (src/modules/sql-reads.ts): its columns, as deployment.rows.ts reads
 * them. Callers reach deployments through visible applications only (Application.deployments).
 */
import { column, type SqlReadTypes, timestamp } from "../sql-reads.ts";

/** Deployment. */
export const deploymentSqlReads: SqlReadTypes = {
  Deployment: {
    id: column("id"),
    status: column("status"),
    title: column("title"),
    description: column("description"),
    createdAt: timestamp("created_at"),
    startedAt: timestamp("started_at"),
    finishedAt: timestamp("finished_at"),
  },
};
