/**
 * Compiled-read SQL of schema/applications.graphql (src/modules/sql-reads.ts): an environment's visible
 * applications, applications' and domains' columns and domains oldest first, as application.loaders.ts reads them
 * (an application's newest deployments are compiled by the deployments module, which owns their table).
 * Callers reach these types through visible applications only (Environment.applications).
 */
import { visibleApplicationSql } from "../access/index.ts";
import { column, type SqlReadTypes, timestamp } from "../sql-reads.ts";

/** Application and Domain. */
export const applicationSqlReads: SqlReadTypes = {
  // An environment's visible applications (Environment is the projects module's type; this table is ours).
  Environment: {
    applications: ({ compiler, alias, nodes }) => {
      const a = compiler.alias();
      const visible = compiler.condition(visibleApplicationSql(compiler.caller.orgs, a));
      const from = `from applications ${a} where ${a}.environment_id = ${alias}.id and ${visible}`;
      return compiler.list("Application", a, nodes, from, `${a}.id`);
    },
  },
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
  },
  Domain: {
    id: column("id"),
    host: column("host"),
    port: column("port"),
    https: column("https"),
    createdAt: timestamp("created_at"),
  },
};
