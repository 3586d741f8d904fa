/**
 * Compiled-read SQL of schema/applications.graphql (src/modules/sql-reads.ts): applications' and domains' columns,
 * domains oldest first and the newest deployments, as application.loaders.ts and deployment.loaders.ts read them.
 * Callers reach these types through visible applications only (Environment.applications).
 */
import { column, pageSizeArg, type SqlReadTypes, timestamp } from "../sql-reads.ts";

/** Application and Domain. */
export const applicationSqlReads: SqlReadTypes = {
  Application: {
    id: column("id"),
    name: column("name"),
    appName: column("app_name"),
    applicationStatus: column("application_status"),
    port: column("port"),
    createdAt: timestamp("created_at"),
    domains: ({ compiler, alias, nodes }) => {
      const x = compiler.alias();
      return compiler.list("Domain", x, nodes, `from domains ${x} where ${x}.application_id = ${alias}.id`, `${x}.id`);
    },
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
  Domain: {
    id: column("id"),
    host: column("host"),
    port: column("port"),
    https: column("https"),
    createdAt: timestamp("created_at"),
  },
};
