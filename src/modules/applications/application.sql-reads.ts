/**
 * Compiled-read SQL of schema/applications.graphql (src/reads/compiler.ts), the only implementation of these
 * reads: applications visible to the caller (their project granted, or the application itself), their source,
 * health, domains and environment variables, the application of a domain or deployment, and where an application
 * or domain is found by id. Their project and environment, deployments and deploy settings are declared by the
 * modules owning those tables.
 */

import { visibleApplicationSql } from "../../auth/access/policy.ts";
import {
  belongsTo,
  checkedEnum,
  column,
  hasMany,
  rootById,
  type SqlComputedColumns,
  type SqlReadCompiler,
  type SqlReadRows,
  type SqlReadTypes,
  timestamp,
} from "../../reads/index.ts";

/** The condition "application row `alias` is visible to the caller" (SQL). */
export function visibleApplicationRow(compiler: SqlReadCompiler, alias: string): string {
  return compiler.condition(visibleApplicationSql(compiler.caller.orgs, alias));
}

/** The condition "the application `applicationIdSql` (SQL) exists and is visible to the caller". */
export function visibleApplicationId(compiler: SqlReadCompiler, applicationIdSql: string): string {
  const a = compiler.alias();
  return `exists (select 1 from applications ${a} where ${a}.id = ${applicationIdSql} and ${visibleApplicationRow(compiler, a)})`;
}

/** SQL of the project id of application `applicationIdSql` (SQL; NULL when none): the access module's standing. */
export function applicationProjectIdSql(applicationIdSql: string): string {
  return `(select ap.project_id from applications ap where ap.id = ${applicationIdSql})`;
}

/** Where applications and domains are found by id, with the caller's visibility. */
export const applicationSqlRows: SqlReadRows = {
  Application: { table: "applications", visible: visibleApplicationRow },
  Domain: { table: "domains", visible: (c, alias) => visibleApplicationId(c, `${alias}.application_id`) },
};

/** A text key of the application's `source` JSON (null when unset). */
const sourceKey =
  (key: string) =>
  ({ alias }: { alias: string }) =>
    `${alias}.source ->> '${key}'`;

/** Query.application, Environment.applications, Application, Domain, EnvironmentVariable and a grant's application. */
export const applicationSqlReads: SqlReadTypes = {
  Query: {
    application: rootById("Application", applicationSqlRows.Application!),
  },
  // An environment's visible applications (Environment is the projects module's type; this table is ours).
  Environment: {
    applications: ({ compiler, alias, nodes }) => {
      const a = compiler.alias();
      const from = `from applications ${a} where ${a}.environment_id = ${alias}.id and ${visibleApplicationRow(compiler, a)}`;
      return compiler.list("Application", a, nodes, from, `${a}.id`);
    },
  },
  Application: {
    id: column("id"),
    name: column("name"),
    appName: column("app_name"),
    applicationStatus: checkedEnum("application_status"),
    sourceType: checkedEnum("source_type"),
    buildType: checkedEnum("build_type"),
    source: ({ compiler, alias, nodes, returnType }) =>
      compiler.objectWith(returnType, alias, nodes, {
        type: checkedEnum("source_type"),
        repo: sourceKey("repo"),
        branch: sourceKey("branch"),
        buildPath: sourceKey("buildPath"),
        dockerImage: sourceKey("dockerImage"),
        gitProviderId: sourceKey("gitProviderId"),
        customGitUrl: sourceKey("customGitUrl"),
        customGitSSHKeyId: sourceKey("customGitSSHKeyId"),
      }),
    port: column("port"),
    needsDeployment: column("needs_deployment"),
    createdAt: timestamp("created_at"),
    health: ({ alias }) => `upper(coalesce(${alias}.health, 'unknown'))`,
    healthCheckedAt: timestamp("health_checked_at"),
    domains: hasMany("Domain", "domains", "application_id"),
    // Values are stored encrypted: EnvironmentVariable.value's resolver decrypts the row's `value_encrypted`.
    environmentVariables: hasMany("EnvironmentVariable", "environment_variables", "application_id", "$.key"),
  },
  // Counts against the plan (the object's row is the organization's; src/modules/organizations/quota.ts).
  PlanUsage: {
    applications: ({ alias }) => `(select count(*)::int from applications q where q.organization_id = ${alias}.id)`,
    domains: ({ alias }) => `(select count(*)::int from domains q where q.organization_id = ${alias}.id)`,
  },
  SiteImport: {
    application: belongsTo("Application", "applications", "application_id", applicationSqlRows.Application),
    domain: belongsTo("Domain", "domains", "domain_id", applicationSqlRows.Domain),
  },
  Deployment: {
    application: belongsTo("Application", "applications", "application_id"),
  },
  Domain: {
    id: column("id"),
    host: column("host"),
    port: column("port"),
    https: column("https"),
    createdAt: timestamp("created_at"),
    application: belongsTo("Application", "applications", "application_id"),
  },
  EnvironmentVariable: {
    key: column("key"),
  },
  // A grant's application: null for a project grant, or when the caller cannot see the application.
  MemberGrant: {
    application: belongsTo("Application", "applications", "application_id", applicationSqlRows.Application),
  },
};

/** What of its row each computed field of the module reads (SqlComputedColumns): a variable's decrypted value. */
export const applicationComputedColumns: SqlComputedColumns = {
  EnvironmentVariable: { value: ["value_encrypted"] },
};
