/**
 * Plain-row reads of applications and domains for the hot read path (issue 15): only the columns the GraphQL
 * types show, times read as epoch milliseconds, no model hydration; an application's domains and newest
 * deployments can come with it in the same statement when the operation selects them (look-ahead, see
 * {@link applicationsKey}).
 */

import type { GraphQLResolveInfo } from "graphql";
import { epochMsSql } from "../../db/sql-time.ts";
import { argumentsOf, selectedField } from "../../shared/look-ahead.ts";
import { checkPageSize } from "../../shared/pagination.ts";
import { deploymentsEmbed } from "./application.embeds.ts";
import type { Application, Domain } from "./application.model.ts";

/** One load of an environment's visible applications, with what to fetch along (same statement). */
export interface ApplicationsKey {
  environmentId: string;
  /** Fetch each application's domains too. */
  domains: boolean;
  /** Fetch each application's newest N deployments too (null: not selected). */
  deployments: number | null;
}

/**
 * The {@link ApplicationsKey} for `Environment.applications` resolved with `info`: domains when the operation
 * selects `domains`, deployments when it selects `deployments` (the largest `first` of its selections; none when
 * a `first` is out of range, which the field's own resolver then reports).
 */
export function applicationsKey(environmentId: string, info: GraphQLResolveInfo): ApplicationsKey {
  const domains = selectedField(info, "domains") !== null;
  let deployments: number | null = null;
  const field = selectedField(info, "deployments");
  if (field) {
    try {
      deployments = Math.max(
        ...argumentsOf(field, info).map((a) => checkPageSize((a.first as number | null) ?? 10, 50)),
      );
    } catch {
      deployments = null;
    }
  }
  return { environmentId, domains, deployments };
}

/** The select list of a plain application row over alias `a`. */
export const APPLICATION_COLUMNS = `a.id as "id", a.organization_id as "organizationId", a.project_id as "projectId",
  a.environment_id as "environmentId", a.name as "name", a.app_name as "appName", a.source_type as "sourceType",
  a.source as "source", a.build_type as "buildType", a.port as "port", a.application_status as "applicationStatus",
  ${epochMsSql("a.created_at")} as "createdAt"`;

/** The select list of a plain domain row over alias `x`. */
export const DOMAIN_COLUMNS = `x.id as "id", x.organization_id as "organizationId", x.application_id as "applicationId",
  x.host as "host", x.port as "port", x.https as "https", ${epochMsSql("x.created_at")} as "createdAt"`;

/** A scalar subquery: the domains of application `a`, oldest id first, as a JSON array. */
export const DOMAINS_JSON = `(select coalesce(json_agg(json_build_object('id', x.id, 'organizationId', x.organization_id,
  'applicationId', x.application_id, 'host', x.host, 'port', x.port, 'https', x.https,
  'createdAt', ${epochMsSql("x.created_at")}) order by x.id), '[]'::json)
  from domains x where x.application_id = a.id)`;

/** A domain row as read (creation time in epoch milliseconds). */
export type RawDomain = Omit<Domain, "createdAt"> & { createdAt: number | Date };

/** An application row as read, with the children fetched along. */
export type ApplicationRow = Omit<Application, "createdAt" | "prefetched"> & {
  createdAt: number | Date;
  domains?: RawDomain[];
  deployments?: unknown[];
};

/** Turns domain rows into domains (in place). */
export function domainsFromRows(rows: RawDomain[]): Domain[] {
  for (const row of rows) row.createdAt = new Date(row.createdAt as number);
  return rows as Domain[];
}

/** Turns an application row into an application carrying its prefetched children (in place). */
export function applicationFromRow(row: ApplicationRow, deployments: number | null): Application {
  row.createdAt = new Date(row.createdAt as number);
  const app = row as unknown as Application;
  if (row.domains || row.deployments) {
    app.prefetched = {
      ...(row.domains && { domains: domainsFromRows(row.domains) }),
      ...(row.deployments &&
        deployments !== null && {
          deployments: { first: deployments, rows: deploymentsEmbed().fromJson(row.deployments) },
        }),
    };
    delete row.domains;
    delete row.deployments;
  }
  return app;
}
