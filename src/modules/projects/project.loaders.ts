/**
 * Per-request loaders for projects and environments. Visibility (organization membership and member
 * grants) is applied inside: an invisible project loads as null, exactly like a missing one.
 */

import DataLoader from "dataloader";
import type { Knex } from "knex";
import { groupByKeys, jsonKey, orderByKeys } from "../../db/loader-utils.ts";
import { epochMsSql } from "../../db/sql-time.ts";
import { type AccessScope, canSeeProject, type OrgAccess, visibleProjectSql } from "../access/index.ts";
import { Environment, Project } from "./project.model.ts";

/** One page request of an organization's projects. */
export interface ProjectPageKey {
  organizationId: string;
  first: number;
  /** Id of the last project of the previous page, or null for the first page. */
  afterId: string | null;
}

/** A loaded page: up to `first` projects plus whether more follow. */
export interface ProjectPage {
  nodes: Project[];
  hasNextPage: boolean;
}

/** The select list of a plain project row over alias `p` (times as epoch milliseconds). */
const PROJECT_COLUMNS = `p.id as "id", p.organization_id as "organizationId", p.name as "name",
  p.description as "description", ${epochMsSql("p.created_at")} as "createdAt",
  ${epochMsSql("p.updated_at")} as "updatedAt"`;

type RawProject = Omit<Project, "createdAt" | "updatedAt"> & { createdAt: number | Date; updatedAt: number | Date };

/** A plain project from a row read with PROJECT_COLUMNS (in place). */
function projectFromRow(row: RawProject): Project {
  row.createdAt = new Date(row.createdAt as number);
  row.updatedAt = new Date(row.updatedAt as number);
  return row as Project;
}

/** Restricts `q` (on table alias `projects`) to the projects `access` may see. */
function visibleProjects(q: Knex.QueryBuilder, access: OrgAccess): Knex.QueryBuilder {
  q.where("projects.organization_id", access.organizationId);
  const g = access.grants;
  if (g) q.whereIn("projects.id", [...g.projectIds, ...g.applicationProjectIds]);
  return q;
}

/** Builds the project and environment loaders of one request. */
export function createProjectLoaders(knex: Knex, scope: AccessScope) {
  const projectById = new DataLoader<string, Project | null>(async (ids) => {
    const [rows, orgs] = await Promise.all([Project.query(knex).whereIn("id", ids as string[]), scope.memberships()]);
    const visible = rows.filter((p) => {
      const access = orgs.get(p.organizationId);
      return access !== undefined && canSeeProject(access, p.id);
    });
    return orderByKeys(ids, visible, (p) => p.id);
  });

  const projectPage = new DataLoader<ProjectPageKey, ProjectPage, string>(
    async (keys) => {
      const orgs = await scope.memberships();
      const parts: string[] = [];
      const bindings: Knex.Value[] = [];
      keys.forEach((key, index) => {
        const access = orgs.get(key.organizationId);
        if (!access) return;
        const visible = visibleProjectSql(new Map([[access.organizationId, access]]), "p.organization_id", "p.id");
        parts.push(
          `(select ${PROJECT_COLUMNS}, ?::int as "pageKey" from projects p where ${visible.sql}
            ${key.afterId ? "and p.id > ?" : ""} order by p.id limit ?)`,
        );
        bindings.push(index, ...visible.bindings, ...(key.afterId ? [key.afterId] : []), key.first + 1);
      });
      const rows: Array<RawProject & { pageKey: number }> = parts.length
        ? (await knex.raw(parts.join(" union all "), bindings)).rows
        : [];
      const grouped = groupByKeys(
        keys.map((_, i) => i),
        rows,
        (r) => r.pageKey,
      );
      return grouped.map((group, i) => {
        const first = keys[i]?.first ?? 0;
        const nodes = group
          .sort((a, b) => (a.id < b.id ? -1 : 1))
          .slice(0, first)
          .map(({ pageKey: _, ...r }) => projectFromRow(r));
        return { nodes, hasNextPage: group.length > first };
      });
    },
    { cacheKeyFn: jsonKey },
  );

  const projectCount = new DataLoader<string, number>(async (orgIds) => {
    const orgs = await scope.memberships();
    const parts: Knex.QueryBuilder[] = [];
    for (const orgId of orgIds) {
      const access = orgs.get(orgId);
      if (!access) continue;
      parts.push(
        visibleProjects(knex("projects").select(knex.raw("? as org_id, count(*)::int as n", [orgId])), access),
      );
    }
    const rows: Array<{ orgId: string; n: number }> = parts.length ? await knex.unionAll(parts, true) : [];
    return orgIds.map((id) => rows.find((r) => r.orgId === id)?.n ?? 0);
  });

  // Callers reach this loader through visible projects only (Project.environments).
  const environmentsByProject = new DataLoader<string, Environment[]>(async (projectIds) => {
    const result: { rows: Array<Omit<Environment, "createdAt"> & { createdAt: number | Date }> } = await knex.raw(
      `select e.id as "id", e.project_id as "projectId", e.name as "name",
        ${epochMsSql("e.created_at")} as "createdAt"
       from environments e where e.project_id = any(?::text[]) order by e.id`,
      [[...projectIds]],
    );
    for (const row of result.rows) row.createdAt = new Date(row.createdAt as number);
    return groupByKeys(projectIds, result.rows as Environment[], (e) => e.projectId);
  });

  const environmentById = new DataLoader<string, Environment | null>(async (ids) => {
    const [rows, orgs] = await Promise.all([
      Environment.query(knex)
        .join("projects", "projects.id", "environments.project_id")
        .whereIn("environments.id", ids as string[])
        .select("environments.*", "projects.organization_id"),
      scope.memberships(),
    ]);
    const visible = rows.filter((e) => {
      const access = orgs.get(e.organizationId ?? "");
      return access !== undefined && canSeeProject(access, e.projectId);
    });
    return orderByKeys(ids, visible, (e) => e.id);
  });

  return { byId: projectById, page: projectPage, count: projectCount, environmentsByProject, environmentById };
}
