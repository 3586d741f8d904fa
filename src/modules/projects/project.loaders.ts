/**
 * Per-request loaders for projects and environments. Visibility (organization membership and member
 * grants) is applied inside: an invisible project loads as null, exactly like a missing one.
 */
import DataLoader from "dataloader";
import type { Knex } from "knex";
import { groupByKeys, jsonKey, orderByKeys } from "../../db/loader-utils.ts";
import { type AccessScope, canSeeProject, type OrgAccess } from "../access/access-scope.ts";
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
      const parts: Knex.QueryBuilder[] = [];
      keys.forEach((key, index) => {
        const access = orgs.get(key.organizationId);
        if (!access) return;
        const q = knex("projects").select("projects.*", knex.raw("?::int as page_key", [index]));
        visibleProjects(q, access);
        if (key.afterId) q.where("projects.id", ">", key.afterId);
        parts.push(q.orderBy("projects.id").limit(key.first + 1));
      });
      const rows: Array<Project & { pageKey: number }> = parts.length
        ? await knex.unionAll(
            parts.map((p) => knex.select("*").from(p.as("p"))),
            true,
          )
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
          .map((r) => Project.fromDatabaseJson(r as object) as Project);
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

  const environmentsByProject = new DataLoader<string, Environment[]>(async (projectIds) => {
    const rows = await Environment.query(knex)
      .whereIn("projectId", projectIds as string[])
      .orderBy("id");
    return groupByKeys(projectIds, rows, (e) => e.projectId);
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
