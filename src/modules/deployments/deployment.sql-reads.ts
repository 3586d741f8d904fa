/**
 * Compiled-read SQL of the Deployment type (src/modules/sql-reads.ts): its columns, as deployment.rows.ts reads
 * them. Callers reach deployments through visible applications only (Application.deployments).
 */
import { column, pageSizeArg, type SqlReadTypes, timestamp } from "../sql-reads.ts";

/** Deployment, and an application's newest deployments (Application is the applications module's type). */
export const deploymentSqlReads: SqlReadTypes = {
  Application: {
    deployments: (field) => {
      const { compiler, alias, nodes } = field;
      const first = pageSizeArg(field, "first", 50);
      if (first === null) return null;
      const [d, newest] = [compiler.alias(), compiler.alias()];
      const from = `from (select * from deployments ${newest} where ${newest}.application_id = ${alias}.id
        order by ${newest}.created_at desc, ${newest}.id desc limit ${first}) ${d}`;
      return compiler.list("Deployment", d, nodes, from, `${d}.created_at desc, ${d}.id desc`);
    },
  },
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
