/**
 * Compiled-read SQL of schema/organizations.graphql (src/reads/compiler.ts), the only implementation of these
 * reads: the viewer, the caller's organizations (members only: another organization is NOT_FOUND), their plans and
 * notification channels, users, the organization and users of others' rows (projects, members, invitations, API
 * keys). `PlanUsage`'s counts are declared by the modules owning the counted tables (the object's row is the
 * organization's).
 */
import { belongsTo, column, hasMany, type ReadCompiler, type ReadTypes, rootById } from "../../reads/index.ts";
import { credentialReads, viewerCredentialSql } from "./credential.reads.ts";
import { memberOf, notificationChannelTable, organizationTable, relatedUserTable } from "./organization.tables.ts";

/**
 * SQL of the id of the organization whose `database_id` is `databaseId` (SQL NULL when none); `databaseId` null:
 * the only organization of a single-organization instance (SQL NULL when there are several). For other modules'
 * reads (e.g. the docs theme of an organization named by its integer id).
 */
export function organizationIdOfDatabaseIdSql(compiler: ReadCompiler, databaseId: number | null): string {
  const o = compiler.alias();
  if (databaseId === null) {
    return `(select case when count(*) = 1 then min(${o}.id) end from (select id from organizations limit 2) ${o})`;
  }
  return `(select ${o}.id from organizations ${o} where ${o}.database_id = ${compiler.param(databaseId)})`;
}

/**
 * SQL of the `database_id` of the organization `organizationIdSql` (SQL), for other modules' rows: a scalar
 * subquery of its own (its alias `dbo` must not be one `organizationIdSql` names), usable where no compiler is at
 * hand (a row source's table).
 */
export function databaseIdOfOrganizationSql(organizationIdSql: string): string {
  return `(select dbo.database_id from organizations dbo where dbo.id = ${organizationIdSql})`;
}

/** SQL of the `text[]` features of the plan of organization `organizationIdSql` (SQL): the access module's standing. */
export function planFeaturesSql(organizationIdSql: string): string {
  return `(select pf.features from organizations po join plans pf on pf.id = po.plan_id where po.id = ${organizationIdSql})`;
}

/** The caller's role in the organization row `alias` (SQL text; null for none). */
function roleIn(compiler: ReadCompiler, alias: string): string {
  const orgs = [...compiler.caller.orgs.values()];
  if (orgs.length === 0) return "null::text";
  const cases = orgs.map((o) => `when ${compiler.param(o.organizationId)} then ${compiler.param(o.role)}::text`);
  return `(case ${alias}.id ${cases.join(" ")} end)::text`;
}

/** `Viewer.authenticatedBy` of each way a principal authenticates. */
const AUTH_METHOD = { session: "session", apiKey: "api_key", agentToken: "agent_token" } as const;

/** Query.viewer/organizations/organization, Viewer, Organization, Plan, NotificationChannel, User. */
export const organizationReads: ReadTypes = {
  ...credentialReads,
  Query: {
    viewer: ({ compiler, nodes, returnType }) => {
      const { caller } = compiler;
      const active = caller.organizationId ? caller.orgs.get(caller.organizationId) : undefined;
      return compiler.objectWith(returnType, "", nodes, {
        user: (f) => {
          const u = compiler.alias();
          const id = compiler.param(caller.userId ?? "");
          return compiler.one(f.returnType, u, f.nodes, `from users ${u} where ${u}.id = ${id}`);
        },
        authenticatedBy: () => `${compiler.param(AUTH_METHOD[caller.via ?? "apiKey"])}::text`,
        activeOrganization: (f) => {
          if (!caller.organizationId) return "null::text";
          const o = compiler.alias();
          const where = `where ${o}.id = ${compiler.param(caller.organizationId)} and ${memberOf(compiler, o)}`;
          return compiler.one(f.returnType, o, f.nodes, `from organizations ${o} ${where}`);
        },
        role: () => `${compiler.param(active?.role ?? null)}::text`,
        credential: viewerCredentialSql,
      });
    },
    // The caller's organizations, in the order its memberships were read.
    organizations: ({ compiler, nodes, returnType }) => {
      const ids = [...compiler.caller.orgs.keys()];
      return compiler.byIds(returnType, organizationTable, ids, nodes, { dropMissing: true });
    },
    organization: rootById(organizationTable),
  },
  Organization: {
    viewerRole: ({ compiler, alias }) => roleIn(compiler, alias),
    usage: ({ compiler, alias, nodes, returnType }) => compiler.object(returnType, alias, nodes),
    plan: ({ compiler, alias: org, nodes, returnType }) => {
      const p = compiler.alias();
      const plan = compiler.objectWith(returnType, p, nodes, {
        name: column("name"),
        quotas: (q) =>
          compiler.objectWith(q.returnType, p, q.nodes, {
            projects: column("max_projects"),
            applications: column("max_applications"),
            databases: column("max_databases"),
            domains: column("max_domains"),
          }),
        // The organization's counts (the plan row is shared by organizations).
        usage: (u) => compiler.object(u.returnType, org, u.nodes),
        features: ({ alias }) => `to_json(${alias}.features)`,
      });
      return plan && compiler.json(`(select ${plan.sql} from plans ${p} where ${p}.id = ${org}.plan_id)`);
    },
    notificationChannels: hasMany(notificationChannelTable, "organization_id"),
  },
  User: {
    twoFactorEnabled: ({ alias }) => `coalesce(${alias}.two_factor_enabled, false)`,
  },
  // The organization of a project (its table is the projects module's; the organization is visible with it).
  Project: {
    organization: belongsTo(organizationTable, "organization_id"),
  },
  SiteImport: {
    organization: belongsTo(organizationTable, "organization_id"),
  },
  // A member's person and organization (members are visible to members of that organization only).
  Member: {
    user: belongsTo(relatedUserTable, "user_id"),
    organization: belongsTo(organizationTable, "organization_id"),
  },
  // Who sent an invitation: null when that account no longer exists.
  Invitation: {
    invitedBy: belongsTo(relatedUserTable, "inviter_id"),
  },
  // Who created an API key (the key acts as this person).
  ApiKey: {
    createdBy: belongsTo(relatedUserTable, "reference_id"),
  },
};
