/**
 * Plain-row reads of `deployments` for the hot read path (issue 15): only the columns the GraphQL type shows
 * (`manifests`, possibly large, is left out and loaded by id when selected), no model hydration. Other modules
 * compose {@link latestDeploymentsJsonSql} to fetch an application's newest deployments with the application.
 */
import { epochMsSql } from "../../db/sql-time.ts";
import type { Deployment } from "./deployment.model.ts";

/** A deployment as read here: every model field but `manifests` (undefined: not loaded). */
export type DeploymentRow = Omit<Deployment, "manifests"> & { manifests?: Deployment["manifests"] };

/** The select list of a plain deployment row over alias `d`, camelCase keys, times as epoch milliseconds. */
export const DEPLOYMENT_COLUMNS = `d.id as "id", d.application_id as "applicationId", d.status as "status",
  d.title as "title", d.description as "description", d.trigger as "trigger",
  ${epochMsSql("d.created_at")} as "createdAt",
  ${epochMsSql("d.started_at")} as "startedAt",
  ${epochMsSql("d.finished_at")} as "finishedAt",
  d.commit_sha as "commitSha", d.error_message as "errorMessage"`;

const JSON_OBJECT = `json_build_object('id', d.id, 'applicationId', d.application_id, 'status', d.status,
  'title', d.title, 'description', d.description, 'trigger', d.trigger,
  'createdAt', ${epochMsSql("d.created_at")},
  'startedAt', ${epochMsSql("d.started_at")},
  'finishedAt', ${epochMsSql("d.finished_at")},
  'commitSha', d.commit_sha, 'errorMessage', d.error_message)`;

/**
 * A scalar subquery: the newest `?` (one binding: how many) deployments of the application whose id is
 * `applicationIdSql`, newest first, as a JSON array for {@link deploymentsFromJson}.
 */
export function latestDeploymentsJsonSql(applicationIdSql: string): string {
  return `(select coalesce(json_agg(${JSON_OBJECT} order by d.created_at desc, d.id desc), '[]'::json)
    from (select * from deployments where application_id = ${applicationIdSql}
      order by created_at desc, id desc limit ?) d)`;
}

/** Raw row/JSON shape: times as epoch milliseconds. */
type RawDeployment = Omit<DeploymentRow, "createdAt" | "startedAt" | "finishedAt"> & {
  createdAt: number;
  startedAt: number | null;
  finishedAt: number | null;
};

/** Turns rows read with {@link DEPLOYMENT_COLUMNS} or {@link latestDeploymentsJsonSql} into deployments (in place). */
export function deploymentsFromJson(rows: unknown[]): DeploymentRow[] {
  for (const row of rows as RawDeployment[]) {
    const out = row as unknown as DeploymentRow;
    out.createdAt = new Date(row.createdAt);
    out.startedAt = row.startedAt === null ? null : new Date(row.startedAt);
    out.finishedAt = row.finishedAt === null ? null : new Date(row.finishedAt);
  }
  return rows as DeploymentRow[];
}
