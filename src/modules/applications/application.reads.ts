/**
 * Compiled-read SQL of schema/applications.graphql (src/reads/compiler.ts), the only implementation of these
 * reads: applications visible to the caller (their project granted, or the application itself), their source,
 * health, domains and environment variables, and the application of a domain or deployment. Their project and
 * environment, deployments and deploy settings are declared by the modules owning those tables.
 */

import {
  belongsTo,
  type ComputedColumns,
  checkedEnum,
  childCondition,
  hasMany,
  type ReadTypes,
  rootById,
} from "../../reads/index.ts";
import {
  applicationTable,
  domainTable,
  environmentVariableTable,
  visibleApplicationRow,
} from "./application.tables.ts";

/** SQL of the project id of application `applicationIdSql` (SQL; NULL when none): the access module's standing. */
export function applicationProjectIdSql(applicationIdSql: string): string {
  return `(select ap.project_id from applications ap where ap.id = ${applicationIdSql})`;
}

/** SQL of the environment id of application `applicationIdSql` (SQL; NULL when none): the access module's standing. */
export function applicationEnvironmentIdSql(applicationIdSql: string): string {
  return `(select ae.environment_id from applications ae where ae.id = ${applicationIdSql})`;
}

/** A text key of the application's `source` JSON (null when unset). */
const sourceKey =
  (key: string) =>
  ({ alias }: { alias: string }) =>
    `${alias}.source ->> '${key}'`;

/** Query.application, Environment.applications, Application, Domain, EnvironmentVariable and a grant's application. */
export const applicationReads: ReadTypes = {
  Query: {
    application: rootById(applicationTable),
  },
  // An environment's visible applications (Environment is the projects module's type; this table is ours).
  Environment: {
    applications: ({ compiler, alias, nodes }) => {
      const a = compiler.alias();
      const visible = childCondition(visibleApplicationRow(compiler, a));
      const from = `from applications ${a} where ${a}.environment_id = ${alias}.id and ${visible}`;
      return compiler.list("Application", a, nodes, from, `${a}.id`);
    },
  },
  Application: {
    applicationStatus: checkedEnum("application_status"),
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
    health: ({ alias }) => `upper(coalesce(${alias}.health, 'unknown'))`,
    domains: hasMany(domainTable, "application_id"),
    // Values are stored encrypted: EnvironmentVariable.value's resolver decrypts the row's `value_encrypted`.
    environmentVariables: hasMany(environmentVariableTable, "application_id", "$.key"),
  },
  // Counts against the plan (the object's row is the organization's; src/modules/organizations/quota.ts).
  PlanUsage: {
    applications: ({ alias }) => `(select count(*)::int from applications q where q.organization_id = ${alias}.id)`,
    domains: ({ alias }) => `(select count(*)::int from domains q where q.organization_id = ${alias}.id)`,
  },
  SiteImport: {
    application: belongsTo(applicationTable, "application_id"),
    domain: belongsTo(domainTable, "domain_id"),
  },
  Deployment: {
    application: belongsTo(applicationTable, "application_id"),
  },
  Domain: {
    application: belongsTo(applicationTable, "application_id"),
  },
  // A grant's application: null for a project grant, or when the caller cannot see the application.
  MemberGrant: {
    application: belongsTo(applicationTable, "application_id"),
  },
};

/** What of its row each computed field of the module reads (ComputedColumns): a variable's decrypted value. */
export const applicationComputedColumns: ComputedColumns = {
  EnvironmentVariable: { value: ["value_encrypted"] },
};
